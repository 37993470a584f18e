/**
 * The organisation archive's data part (decision 069): which tenant tables travel, in which order they are
 * written back, and which of their columns hold ids of other rows (rewritten on import). A table of the schema
 * that is in neither `MOVED` nor `STAYS` fails `organisation-data.test.ts`: a new table must be placed.
 */

/** A column that holds another row's id: the table it points into, or one chosen by a sibling column's value. */
export type Ref = string | { by: string; tables: Record<string, string> };

export interface MovedTable {
  name: string;
  /** Columns holding ids of other rows (org_id aside). */
  refs: Record<string, Ref>;
  /** True when the table has its own per-organisation `id` (renumbered on import). */
  hasId: boolean;
  /** Columns never written to the archive (secrets). */
  secret?: string[];
  /** A per-organisation settings row (one at most): the archive's replaces the importer's own. */
  singleton?: boolean;
  /**
   * Reference columns without a foreign key, kept as history after their row is deleted (a stock move names the
   * order it was used on): one that points at a row the archive does not hold is imported as null, not refused.
   */
  history?: string[];
}

const ACTIVITY_TABLES: Record<string, string> = {
  team: 'teams',
  user: 'users',
  asset: 'assets',
  'asset-category': 'asset_categories',
  'uom-category': 'uom_categories',
  uom: 'uoms',
  'time-tracking-reason': 'time_tracking_reasons',
  'product-category': 'product_categories',
  tax: 'taxes',
  'pm-plan': 'pm_plans',
  'customer-vendor': 'customer_vendors',
  'maintenance-request': 'maintenance_requests',
  'work-station': 'work_stations',
  service: 'services',
  part: 'parts',
  quotation: 'quotations',
  'purchase-order': 'purchase_orders',
  'work-order': 'work_orders',
  procedure: 'procedures',
  'maintenance-order': 'maintenance_orders',
};

const PORTAL_TARGETS = { asset: 'assets', 'work-station': 'work_stations' };

const t = (name: string, refs: Record<string, Ref> = {}, extra: Partial<MovedTable> = {}): MovedTable => ({ name, refs, hasId: true, ...extra });
const link = (name: string, refs: Record<string, Ref>, extra: Partial<MovedTable> = {}): MovedTable => ({ name, refs, hasId: false, ...extra });

/** Every moved table, parents before children (the order rows are inserted in). */
export const MOVED: MovedTable[] = [
  t('users', {}, { secret: ['password_hash'] }),
  t('teams'),
  link('team_members', { team_id: 'teams', worker_id: 'users' }),
  t('asset_categories'),
  t('uom_categories'),
  t('uoms', { category_id: 'uom_categories' }),
  t('product_categories', { parent_id: 'product_categories' }),
  t('taxes'),
  link('tax_children', { group_id: 'taxes', child_id: 'taxes' }),
  t('time_tracking_reasons'),
  t('customer_vendors', { parent_id: 'customer_vendors' }),
  t('services'),
  t('locations', { parent_id: 'locations' }),
  t('failure_codes', { parent_id: 'failure_codes', asset_category_id: 'asset_categories' }),
  link('failure_code_settings', {}, { singleton: true }),
  t('work_stations', { team_id: 'teams', location_id: 'locations' }),
  link('service_work_stations', { service_id: 'services', work_station_id: 'work_stations' }),
  t('assets', { customer_vendor_id: 'customer_vendors', asset_category_id: 'asset_categories', location_id: 'locations', parent_id: 'assets' }),
  t('meters', { asset_id: 'assets' }),
  t('parts', { category_id: 'product_categories', unit_of_measure_id: 'uoms', purchase_unit_of_measure_id: 'uoms' }),
  link('stock_part_settings', { part_id: 'parts', preferred_vendor_id: 'customer_vendors' }),
  t('stock_locations', { location_id: 'locations' }),
  link('stock_levels', { part_id: 'parts', location_id: 'stock_locations' }),
  link('stock_settings', {}, { singleton: true }),
  // The order ids of a move are plain numbers (the ledger outlives a deleted order): rewritten like references,
  // and null when the order is gone.
  t(
    'stock_moves',
    {
      part_id: 'parts',
      user_id: 'users',
      from_location_id: 'stock_locations',
      to_location_id: 'stock_locations',
      work_order_id: 'work_orders',
      purchase_order_id: 'purchase_orders',
    },
    { history: ['work_order_id', 'purchase_order_id'] },
  ),
  t('procedures'),
  t('procedure_steps', { procedure_id: 'procedures' }),
  t('quotations', { customer_id: 'customer_vendors', sales_person_id: 'users' }),
  t('quotation_lines', { quotation_id: 'quotations', service_id: 'services', part_id: 'parts', tax_id: 'taxes', uom_id: 'uoms' }),
  t('purchase_orders', { vendor_id: 'customer_vendors', requester_id: 'users' }),
  t('purchase_order_lines', { purchase_order_id: 'purchase_orders', service_id: 'services', part_id: 'parts', tax_id: 'taxes', uom_id: 'uoms' }),
  t('stock_reorders', { purchase_order_id: 'purchase_orders', part_id: 'parts', location_id: 'stock_locations' }),
  t('maintenance_requests', { customer_id: 'customer_vendors', assigned_to: 'users', asset_id: 'assets' }),
  t('maintenance_orders', { maintenance_request_id: 'maintenance_requests', asset_id: 'assets' }),
  link('maintenance_order_parts', { maintenance_order_id: 'maintenance_orders', part_id: 'parts' }),
  link('maintenance_order_services', { maintenance_order_id: 'maintenance_orders', service_id: 'services' }),
  t('work_orders', {
    asset_id: 'assets',
    created_by_id: 'users',
    quotation_id: 'quotations',
    problem_code_id: 'failure_codes',
    cause_code_id: 'failure_codes',
    remedy_code_id: 'failure_codes',
  }),
  link('work_order_followers', { work_order_id: 'work_orders', user_id: 'users' }),
  t('asset_state_intervals', {
    asset_id: 'assets',
    set_by: 'users',
    work_order_id: 'work_orders',
    maintenance_request_id: 'maintenance_requests',
    cascaded_from: 'asset_state_intervals',
  }),
  link('work_order_closures', { work_order_id: 'work_orders' }),
  link('work_order_assignees', { work_order_id: 'work_orders', user_id: 'users' }),
  t('work_order_shares', { work_order_id: 'work_orders', vendor_id: 'customer_vendors', created_by_id: 'users' }),
  t('work_order_share_messages', { share_id: 'work_order_shares', user_id: 'users' }),
  t('work_order_labors', { work_order_id: 'work_orders', worker_id: 'users', reason_id: 'time_tracking_reasons', share_id: 'work_order_shares' }),
  t('work_order_parts', { work_order_id: 'work_orders', part_id: 'parts', share_id: 'work_order_shares', location_id: 'stock_locations' }),
  t('work_order_photos', { work_order_id: 'work_orders', user_id: 'users' }),
  link('work_order_procedures', { work_order_id: 'work_orders', procedure_id: 'procedures', attached_by_id: 'users' }),
  t('work_order_procedure_steps', { work_order_id: 'work_orders', answered_by_id: 'users', follow_up_work_order_id: 'work_orders' }),
  t('meter_readings', { meter_id: 'meters', work_order_id: 'work_orders', recorded_by_id: 'users' }),
  t('pm_plans', { work_station_id: 'work_stations', team_id: 'teams', procedure_id: 'procedures', meter_id: 'meters', created_by_id: 'users' }),
  link('pm_plan_assets', { plan_id: 'pm_plans', asset_id: 'assets' }),
  link('pm_plan_assignees', { plan_id: 'pm_plans', user_id: 'users' }),
  link('pm_plan_parts', { plan_id: 'pm_plans', part_id: 'parts' }),
  t('pm_occurrences', { plan_id: 'pm_plans', asset_id: 'assets', work_order_id: 'work_orders', created_by_id: 'users' }),
  link('pm_settings', {}, { singleton: true }),
  link('portal_settings', {}, { singleton: true }),
  t('portal_codes', { target_id: { by: 'kind', tables: PORTAL_TARGETS } }),
  t('portal_requests', {
    target_id: { by: 'target_kind', tables: PORTAL_TARGETS },
    work_order_id: 'work_orders',
    maintenance_request_id: 'maintenance_requests',
    merged_into_id: 'portal_requests',
  }),
  t('portal_replies', { request_id: 'portal_requests', user_id: 'users' }),
  link('user_assets', { user_id: 'users', asset_id: 'assets' }),
  link('user_services', { user_id: 'users', service_id: 'services' }),
  link('user_work_stations', { user_id: 'users', work_station_id: 'work_stations' }),
  t('activities', { entity_id: { by: 'entity_type', tables: ACTIVITY_TABLES }, user_id: 'users' }),
  t('import_mappings'),
  link('notification_preferences', { user_id: 'users' }),
  link('notification_org_settings', {}, { singleton: true }),
];

/**
 * Tenant tables that do not travel: sign-in state and secrets (sessions, invitations, API keys, webhook
 * endpoints and their deliveries: re-created by the new organisation's admin), request bookkeeping, and counts
 * derived from other rows (recomputed by the import).
 */
export const STAYS = [
  'sessions',
  'invitations',
  'idempotency_keys',
  'api_keys',
  'webhook_endpoints',
  'webhook_deliveries',
  'org_counters',
  // Sign-in secrets and devices (decisions 076, 077, 075), people's messages already sent or waiting, reports
  // naming people in a list (re-made by the new organisation's managers), and the audit trail (decision 078): the
  // trail is the old organisation's, kept where it was written, and the new one's chain starts at its import.
  'two_factor_enrolments',
  'two_factor_policies',
  'sso_settings',
  'sso_reauth_proofs',
  'push_subscriptions',
  'notifications',
  'notification_deliveries',
  'insights_reports',
  'audit_log',
  'audit_heads',
];

/** The organisation's own settings that travel (its name, subdomain and size stay the importer's). */
export const ORGANISATION_SETTINGS = [
  'address_street1',
  'address_street2',
  'city',
  'zip_code',
  'country',
  'website',
  'phone_number',
  'profile_picture',
  'profile_picture_low',
  'currency',
  'tax_rounding',
  'time_zone',
] as const;

/** The archive's data format; `data/manifest.json` names it. */
export const DATA_FORMAT = 'cmms-organisation-data';
export const DATA_VERSION = 1;
