import { useQuery } from '@tanstack/react-query';
import { AsyncSelectFilter, type FilterSpec, type ListQueryState } from '../../../web/components';
import { api } from '../../../web/lib/api';
import type { LocationDto } from '../locations.schema';

// The lists' location filters apart from the form's picker (location-select.tsx): a list loads the picker's
// Select only when the user first acts (issue 46: weight; AsyncSelectFilter).

export const LOCATION_OPTIONS_PATH = '/locations/get-location-options';

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
      <AsyncSelectFilter
        path={LOCATION_OPTIONS_PATH}
        pageSize={20}
        value={id}
        onChange={(v) => onChange(v === null ? null : Number(v))}
        label={label}
        initialOption={id !== null && chosenName !== null ? { value: id, label: chosenName } : null}
        testId={testId}
      />
    </div>
  );
}
