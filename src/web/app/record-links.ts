import type { TFunction } from 'i18next';
import { displayId } from '../../shared/display-id';

/**
 * Where each record type of the history lives, and how people call it: the bell and the dashboard's latest
 * activity show "WO-0004", not "Work order #4", and open the record (its list with `?open=<id>`, which opens
 * the drawer; a list without a drawer of its own opens at the list).
 */
const KINDS: Record<string, { path: string; param?: string; prefix?: string }> = {
  'work-order': { path: '/dashboard/work-orders', param: 'open', prefix: 'WO' },
  'maintenance-order': { path: '/dashboard/maintenance-order', param: 'order', prefix: 'PM' },
  'maintenance-request': { path: '/dashboard/maintenance-request', param: 'open', prefix: 'MR' },
  'portal-request': { path: '/dashboard/requests', param: 'open', prefix: 'PR' },
  quotation: { path: '/dashboard/quotations', param: 'open', prefix: 'Q' },
  'purchase-order': { path: '/dashboard/purchase-orders', param: 'open', prefix: 'PO' },
  'customer-vendor': { path: '/dashboard/customer-vendors', param: 'open' },
  asset: { path: '/dashboard/assets' },
  part: { path: '/dashboard/parts-inventory' },
  service: { path: '/dashboard/services' },
  'work-station': { path: '/dashboard/work-stations' },
  team: { path: '/dashboard/teams' },
  user: { path: '/settings/users' },
  tax: { path: '/settings/taxes' },
  uom: { path: '/settings/uom' },
  'uom-category': { path: '/settings/uom-categories' },
  'asset-category': { path: '/settings/assets-category' },
  'product-category': { path: '/settings/products-category' },
  'time-tracking-reason': { path: '/settings/time-tracking-reason' },
};

/** "WO-0004" for numbered documents, "Asset #4" (translated) for the rest. */
export function recordName(t: TFunction, entityType: string, entityId: number): string {
  const kind = KINDS[entityType];
  if (kind?.prefix) return displayId(kind.prefix, entityId);
  return `${t(`shell.record.${entityType}`, { defaultValue: entityType })} #${entityId}`;
}

/** The in-app link that opens the record (undefined for a type without a screen). */
export function recordLink(entityType: string, entityId: number): string | undefined {
  const kind = KINDS[entityType];
  if (!kind) return undefined;
  return kind.param ? `${kind.path}?${kind.param}=${entityId}` : kind.path;
}

/** "WO-0004 Pump seal" for numbered documents with a name, the name alone for the rest ("Amal Haddad"), else `recordName`. */
export function namedRecord(t: TFunction, entityType: string, entityId: number, name: string | null | undefined): string {
  if (!name) return recordName(t, entityType, entityId);
  return KINDS[entityType]?.prefix ? `${recordName(t, entityType, entityId)} ${name}` : name;
}
