// Every Drizzle table of the product, re-exported for drizzle-kit and the typed client.
// A feature adds one line here when it adds a <area>.table.ts.
export * from '../../features/organization/organization.table';
export * from '../../features/users/users.table';
export * from '../../features/auth/auth.table';
export * from '../../features/activity/activity.table';
