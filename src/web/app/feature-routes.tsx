import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { ComingSoon } from '../pages/coming-soon';

type PageModule = { default: ComponentType };
// Every page module of every feature; a route whose file does not exist yet shows the "being set up" state.
const pages = import.meta.glob<PageModule>('../../features/*/ui/*-page.tsx');

const loaders = new WeakMap<LazyExoticComponent<ComponentType>, () => Promise<PageModule>>();

/** A page of a feature, lazily loaded from src/features/<area>/ui/<file>-page.tsx (default export). */
function page(file: string, title: string): LazyExoticComponent<ComponentType> {
  const load = pages[`../../features/${file}.tsx`];
  const Page = lazy(load ?? (async () => ({ default: () => <ComingSoon title={title} /> })));
  if (load) loaders.set(Page, load);
  return Page;
}

export interface FeatureRoute {
  /** Full path, e.g. '/dashboard/work-orders'. */
  path: string;
  Page: LazyExoticComponent<ComponentType>;
}

/**
 * path -> page. One line per route; a feature engineer points their route at their page file
 * ('<area>/ui/<name>-page', without .tsx). The page's default export is rendered inside the shell.
 */
export const featureRoutes: FeatureRoute[] = [
  { path: '/dashboard/work-orders', Page: page('work-orders/ui/work-orders-page', 'Work Orders') },
  { path: '/dashboard/insights', Page: page('analytics/ui/insights-page', 'Insights') },
  { path: '/dashboard/shared-work-orders', Page: page('work-order-shares/ui/shared-work-orders-page', 'Shared Work Orders') },
  { path: '/dashboard/calendar', Page: page('calendar/ui/calendar-page', 'Calendar') },
  { path: '/dashboard/pm-plans', Page: page('pm-plans/ui/pm-plans-page', 'Preventive Maintenance Plans') },
  { path: '/dashboard/maintenance-order', Page: page('maintenance-orders/ui/maintenance-orders-page', 'Maintenance Orders') },
  { path: '/dashboard/maintenance-request', Page: page('maintenance-requests/ui/maintenance-requests-page', 'Maintenance Requests') },
  { path: '/dashboard/assets', Page: page('assets/ui/assets-page', 'Assets') },
  { path: '/dashboard/locations', Page: page('locations/ui/locations-page', 'Locations') },
  { path: '/dashboard/work-stations', Page: page('work-stations/ui/work-stations-page', 'Work Stations') },
  { path: '/dashboard/services', Page: page('service-catalog/ui/services-page', 'Services') },
  { path: '/dashboard/parts-inventory', Page: page('parts/ui/parts-page', 'Parts / Inventory') },
  { path: '/dashboard/storerooms', Page: page('stock/ui/storerooms-page', 'Storerooms') },
  { path: '/dashboard/purchase-orders', Page: page('purchase-orders/ui/purchase-orders-page', 'Purchase Orders') },
  { path: '/dashboard/quotations', Page: page('quotations/ui/quotations-page', 'Quotations') },
  { path: '/dashboard/customer-vendors', Page: page('customers-vendors/ui/customers-vendors-page', 'Customers & Vendors') },
  { path: '/dashboard/teams', Page: page('teams/ui/teams-page', 'Teams') },
  { path: '/dashboard/requests', Page: page('request-portal/ui/requests-page', 'Requests') },
  { path: '/dashboard/scan', Page: page('request-portal/ui/scan-page', 'Scan') },
  { path: '/dashboard/scan/:token', Page: page('request-portal/ui/scan-page', 'Scan') },
  { path: '/settings/products-category', Page: page('master-data/ui/product-categories-page', 'Products Category') },
  { path: '/settings/taxes', Page: page('master-data/ui/taxes-page', 'Taxes') },
  { path: '/settings/uom', Page: page('master-data/ui/uoms-page', 'Units of Measure') },
  { path: '/settings/uom-categories', Page: page('master-data/ui/uom-categories-page', 'UOM Categories') },
  { path: '/settings/failure-codes', Page: page('failure-codes/ui/failure-codes-page', 'Failure Codes') },
  { path: '/settings/assets-category', Page: page('master-data/ui/asset-categories-page', 'Asset Categories') },
  { path: '/settings/time-tracking-reason', Page: page('master-data/ui/time-tracking-reasons-page', 'Time Tracking Reasons') },
  { path: '/settings/users', Page: page('users/ui/users-page', 'Workers') },
  { path: '/settings/procedures', Page: page('procedures/ui/procedures-page', 'Procedures') },
  { path: '/settings/api-keys', Page: page('api-keys/ui/api-keys-page', 'API keys') },
  { path: '/settings/single-sign-on', Page: page('sso/ui/single-sign-on-page', 'Single sign-on') },
  { path: '/settings/audit-log', Page: page('audit/ui/audit-log-page', 'Audit log') },
  { path: '/settings/webhooks', Page: page('webhooks/ui/webhooks-page', 'Webhooks') },
  { path: '/settings/import-export', Page: page('data-transfer/ui/import-export-page', 'Import / Export') },
];

/** Starts loading the page module of `pathname` (a feature route) without rendering it. */
export function preloadFeaturePage(pathname: string) {
  const route = featureRoutes.find((r) => r.path === pathname);
  if (route) void loaders.get(route.Page)?.();
}
