import { createRecordSelect, type SelectOption } from '../../../web/components';
import type { WorkStationDto } from '../work-stations.schema';
import { WorkStationCreateModal } from './work-station-form';

export const WORK_STATION_OPTIONS_PATH = '/workstations/get-workstation-options';

/**
 * A searchable work station picker (fetched as you type). Its "Add New" entry (value 0, for managers, who
 * may create stations) opens the creation dialog in place and selects the new station.
 */
export const WorkStationSelect = createRecordSelect<WorkStationDto, SelectOption>({
  path: WORK_STATION_OPTIONS_PATH,
  queryKey: 'work-stations',
  managersOnly: true,
  CreateModal: WorkStationCreateModal,
  toOption: (station) => ({ value: station.id, label: station.name, code: station.code }),
});
