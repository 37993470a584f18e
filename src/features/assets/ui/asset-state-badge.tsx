import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AssetState } from '../../asset-states/asset-states.values';
import './asset-states-i18n';

/** The colour of each state, on the badge and on the timeline's bar. */
export const STATE_COLORS: Record<AssetState, string> = { running: 'green', down: 'red', standby: 'gray', 'planned-maintenance': 'blue' };

/** An asset's state now (decision 079), in the list and the drawer. */
export function AssetStateBadge({ state }: { state: AssetState }) {
  const { t } = useTranslation('assetStates');
  return (
    <Badge color={STATE_COLORS[state]} variant="light" tt="none" data-testid="asset-state-badge">
      {t(`states.${state}`)}
    </Badge>
  );
}
