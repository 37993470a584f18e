import type { ComponentType } from 'react';
import {
  IconBox,
  IconBuildingWarehouse,
  IconCalendarRepeat,
  IconBuildingFactory2,
  IconCalendar,
  IconCategory,
  IconBug,
  IconChartHistogram,
  IconClipboardList,
  IconClockPause,
  IconListCheck,
  IconFileDollar,
  IconLayoutDashboard,
  IconPackage,
  IconReceiptTax,
  IconRuler2,
  IconRulerMeasure,
  IconSettings,
  IconShoppingCart,
  IconTool,
  IconTools,
  IconUsers,
  IconUsersGroup,
  IconBuildingStore,
  IconTag,
  IconKey,
  IconWebhook,
  IconFileImport,
  IconInbox,
  IconLogin,
  IconShieldCheck,
} from '@tabler/icons-react';

export interface MenuItem {
  /** i18n key under menu.items */
  key: string;
  path: string;
  icon: ComponentType<{ size?: number | string; stroke?: number }>;
  /** GET path under /api answering `{ count }`: a figure shown beside the item (e.g. new portal requests). */
  countPath?: string;
}

/** The query key of a menu item's figure: the side menu, the bell and a page that changes the figure share it. */
export const menuCountKey = (countPath: string | undefined) => ['menu-count', countPath] as const;
/** New portal requests waiting for triage (the Requests item and the bell). */
export const NEW_REQUESTS_COUNT_PATH = '/portal/new-requests-count';

export interface MenuGroup {
  key: string;
  items: MenuItem[];
}

/** The side menu of spec section 2. */
export const dashboardMenu: MenuGroup[] = [
  {
    key: 'overview',
    items: [
      { key: 'dashboard', path: '/dashboard/analytics', icon: IconLayoutDashboard },
      // The manager's analytics (issue 24, decision 038): beside the spec's Dashboard, which stays as it is.
      { key: 'insights', path: '/dashboard/insights', icon: IconChartHistogram },
    ],
  },
  {
    key: 'maintenance',
    items: [
      { key: 'requests', path: '/dashboard/requests', icon: IconInbox, countPath: NEW_REQUESTS_COUNT_PATH },
      { key: 'maintenanceRequest', path: '/dashboard/maintenance-request', icon: IconClipboardList },
      { key: 'maintenanceOrder', path: '/dashboard/maintenance-order', icon: IconTools },
      { key: 'pmPlans', path: '/dashboard/pm-plans', icon: IconCalendarRepeat },
      { key: 'workOrders', path: '/dashboard/work-orders', icon: IconTool },
      { key: 'calendar', path: '/dashboard/calendar', icon: IconCalendar },
      { key: 'workStations', path: '/dashboard/work-stations', icon: IconBuildingFactory2 },
      { key: 'services', path: '/dashboard/services', icon: IconSettings },
    ],
  },
  {
    key: 'sales',
    items: [
      { key: 'quotations', path: '/dashboard/quotations', icon: IconFileDollar },
      { key: 'purchaseOrders', path: '/dashboard/purchase-orders', icon: IconShoppingCart },
      { key: 'customerVendors', path: '/dashboard/customer-vendors', icon: IconBuildingStore },
      { key: 'partsInventory', path: '/dashboard/parts-inventory', icon: IconPackage },
      { key: 'storerooms', path: '/dashboard/storerooms', icon: IconBuildingWarehouse },
    ],
  },
  {
    key: 'assets',
    items: [
      { key: 'assets', path: '/dashboard/assets', icon: IconBox },
      { key: 'locations', path: '/dashboard/locations', icon: IconBuildingFactory2 },
    ],
  },
  { key: 'teams', items: [{ key: 'teams', path: '/dashboard/teams', icon: IconUsersGroup }] },
];

/** The settings area's own menu. */
export const settingsMenu: MenuItem[] = [
  { key: 'productsCategory', path: '/settings/products-category', icon: IconTag },
  { key: 'taxes', path: '/settings/taxes', icon: IconReceiptTax },
  { key: 'uomCategories', path: '/settings/uom-categories', icon: IconRuler2 },
  { key: 'uom', path: '/settings/uom', icon: IconRulerMeasure },
  { key: 'assetCategories', path: '/settings/assets-category', icon: IconCategory },
  { key: 'failureCodes', path: '/settings/failure-codes', icon: IconBug },
  { key: 'workers', path: '/settings/users', icon: IconUsers },
  { key: 'timeTrackingReason', path: '/settings/time-tracking-reason', icon: IconClockPause },
  { key: 'procedures', path: '/settings/procedures', icon: IconListCheck },
  { key: 'apiKeys', path: '/settings/api-keys', icon: IconKey },
  { key: 'singleSignOn', path: '/settings/single-sign-on', icon: IconLogin },
  { key: 'webhooks', path: '/settings/webhooks', icon: IconWebhook },
  { key: 'auditLog', path: '/settings/audit-log', icon: IconShieldCheck },
  { key: 'importExport', path: '/settings/import-export', icon: IconFileImport },
];

export const SETTINGS_HOME = '/settings/products-category';
