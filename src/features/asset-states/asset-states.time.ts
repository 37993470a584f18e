export const MINUTE = 60_000;

/** Instants are kept in whole minutes (decision 079): availability is minute-exact. */
export const toMinute = (d: Date) => new Date(Math.floor(d.getTime() / MINUTE) * MINUTE);
