// Every Drizzle table of the product, re-exported for drizzle-kit and the typed client.
// A feature adds one line here when it adds a <area>.table.ts.
export * from '../../features/organization/organization.table';
export * from '../../features/users/users.table';
export * from '../../features/auth/auth.table';
export * from '../../features/activity/activity.table';
export * from '../../features/master-data/master-data.table';
export * from '../../features/teams/teams.table';
export * from '../../features/customers-vendors/customers-vendors.table';
export * from '../../features/assets/assets.table';
export * from '../../features/parts/parts.table';
export * from '../../features/work-stations/work-stations.table';
export * from '../../features/service-catalog/service-catalog.table';
export * from '../../features/maintenance-requests/maintenance-requests.table';
export * from '../../features/maintenance-orders/maintenance-orders.table';
export * from './idempotency.table';
export * from '../../features/work-orders/work-orders.table';
export * from '../../features/quotations/quotations.table';
export * from '../../features/purchase-orders/purchase-orders.table';
export * from '../../features/meters/meters.table';
export * from '../../features/pm-plans/pm-plans.table';
export * from '../../features/procedures/procedures.table';
export * from '../../features/users/user-relations.table';
export * from '../../features/work-order-shares/work-order-shares.table';
