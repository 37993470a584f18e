import { createRecordSelect, type RecordSelectConfig, type RecordSelectProps, type SelectOption } from '../../../web/components';
import type { LocationDto } from '../locations.schema';
import { LOCATION_OPTIONS_PATH } from './location-filter-select';

/** A location option: value, label (the name), and its path from the top ("Plant / Hall / Line 1"). */
export interface LocationOption extends SelectOption {
  path: string;
  code: string | null;
}

const config: RecordSelectConfig<LocationDto, LocationOption> = {
  path: LOCATION_OPTIONS_PATH,
  pageSize: 20,
  queryKey: 'locations',
  // Locations are created on their own screen (a place in the tree is chosen there), not from a picker.
  CreateModal: () => null,
  toOption: (l) => ({ value: l.id, label: l.name, path: l.path, code: l.code }),
};

const Picker = createRecordSelect<LocationDto, LocationOption>(config);

/** A searchable location picker (name or code, fetched as you type); no "Add New". */
export function LocationSelect(props: Omit<RecordSelectProps<LocationOption>, 'allowAddNew'>) {
  return <Picker {...props} allowAddNew={false} />;
}
