/**
 * Asset states (decision 079), without zod: the asset list's badge needs them on its first paint.
 * Availability counts `down` only: standby and planned maintenance are time not down.
 */
export const ASSET_STATES = ['running', 'down', 'standby', 'planned-maintenance'] as const;
export type AssetState = (typeof ASSET_STATES)[number];

export const ASSET_STATE_LABELS: Record<'en' | 'ar', Record<AssetState, string>> = {
  en: { running: 'Running', down: 'Down', standby: 'Standby', 'planned-maintenance': 'Planned maintenance' },
  ar: { running: 'يعمل', down: 'متوقف', standby: 'احتياطي', 'planned-maintenance': 'صيانة مخططة' },
};
