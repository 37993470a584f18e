import { z } from '../../shared/zod-setup';

/** The days of down time a roll-up adds up (to now). */
export const ROLLUP_DOWN_DAYS = 30;

/**
 * A roll-up (decision 072) of an asset or a location alone ("own") and with everything under it ("total"). Work =
 * work orders on them (open = assigned or in progress); cost = labour and parts of those orders in minor units, at
 * the rates the lines kept (the work orders' cost formula), null for a worker; down time = the assets' down minutes
 * over the last ROLLUP_DOWN_DAYS days, from their state intervals (each asset's minutes once, the assets added up).
 */
export const rollUpSchema = z.object({
  workOrders: z.object({ own: z.number(), total: z.number() }),
  openWorkOrders: z.object({ own: z.number(), total: z.number() }),
  costMinor: z.object({ own: z.number(), total: z.number() }).nullable(),
  downMinutes: z.object({ own: z.number(), total: z.number() }),
});
export type RollUp = z.infer<typeof rollUpSchema>;
