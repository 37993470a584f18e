import { lazy } from 'react';
import { createRecordMultiSelect, createRecordSelect, type RecordSelectConfig, type SelectOption } from '../../../web/components';
import type { WorkStationDto } from '../work-stations.schema';

// The creation form loads when "Add New" is chosen, not with every page that shows the picker.
const WorkStationCreateModal = lazy(() => import('./work-station-form').then((m) => ({ default: m.WorkStationCreateModal })));

export const WORK_STATION_OPTIONS_PATH = '/workstations/get-workstation-options';

const workStationPicker: RecordSelectConfig<WorkStationDto, SelectOption> = {
  path: WORK_STATION_OPTIONS_PATH,
  queryKey: 'work-stations',
  managersOnly: true,
  CreateModal: WorkStationCreateModal,
  toOption: (station) => ({ value: station.id, label: station.name, code: station.code }),
};

/**
 * A searchable work station picker (fetched as you type). Its "Add New" entry (value 0, for managers, who
 * may create stations) opens the creation dialog in place and selects the new station.
 */
export const WorkStationSelect = createRecordSelect<WorkStationDto, SelectOption>(workStationPicker);

/** Several work stations; "Add New" creates one in place and adds it to the chosen values. */
export const WorkStationMultiSelect = createRecordMultiSelect<WorkStationDto, SelectOption>(workStationPicker);
