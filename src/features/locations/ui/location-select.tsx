import {
  createRecordSelect,
  type FilterSpec,
  type ListQueryState,
  type RecordSelectConfig,
  type RecordSelectProps,
  type SelectOption,
} from '../../../web/components';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../web/lib/api';
import type { LocationDto } from '../locations.schema';

export const LOCATION_OPTIONS_PATH = '/locations/get-location-options';

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

/**
 * A list's location filter (decision 072): the `locationId` query parameter, that location and everything under
 * it.
 */
export function LocationFilter<F extends FilterSpec>({
  state,
  label,
  name = 'locationId' as keyof F & string,
}: {
  state: ListQueryState<F>;
  label: string;
  name?: keyof F & string;
}) {
  const value = state.filters[name] as string;
  return (
    <LocationIdFilter
      value={value ? Number(value) : null}
      onChange={(v) => state.setFilter(name, (v === null ? '' : String(v)) as never)}
      label={label}
      testId={`filter-${name}`}
    />
  );
}

/**
 * A location filter held elsewhere (the list's state, the insights screen's address): after a reload (the id
 * alone) the chosen location's name is read once, so the filter never shows a bare id.
 */
export function LocationIdFilter({
  value: id,
  onChange,
  label,
  testId,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
  label: string;
  testId: string;
}) {
  const chosen = useQuery({
    queryKey: ['locations', 'one', id],
    queryFn: ({ signal }) => api.get<{ location: LocationDto }>(`/locations/get-location/${id}`, { signal }),
    enabled: id !== null,
    staleTime: 60_000,
  });
  const chosenName = chosen.data?.location.id === id ? chosen.data.location.name : null;
  return (
    <div style={{ minWidth: 200 }}>
      <LocationSelect
        value={id}
        onChange={(v) => onChange(v === null ? null : Number(v))}
        label={label}
        initialOption={id !== null && chosenName !== null ? { value: id, label: chosenName } : null}
        testId={testId}
      />
    </div>
  );
}
