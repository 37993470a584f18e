import { AsyncSelect, type AsyncSelectProps, type SelectOption } from '../../../web/components';
import type { MaintenanceType } from '../maintenance-requests.schema';

/** What choosing a request gives the maintenance order form: its type and asset. */
export interface MaintenanceRequestOption extends SelectOption {
  maintenanceRequestId: string;
  maintenanceType: MaintenanceType;
  assetId: number | null;
  asset: { id: number; name: string } | null;
}

export const MAINTENANCE_REQUEST_OPTIONS_PATH = '/maintenance-requests/get-maintenance-request-options';

/** A searchable maintenance request picker (by title or MR-ID); the option carries the type and the asset. */
export function MaintenanceRequestSelect(
  props: Pick<AsyncSelectProps, 'value' | 'label' | 'error' | 'initialOption' | 'disabled' | 'withAsterisk' | 'testId'> & {
    onChange(value: number | null, option: MaintenanceRequestOption | null): void;
  },
) {
  return (
    <AsyncSelect
      path={MAINTENANCE_REQUEST_OPTIONS_PATH}
      pageSize={10}
      {...props}
      onChange={(v, option) => props.onChange(v, option as MaintenanceRequestOption | null)}
    />
  );
}
