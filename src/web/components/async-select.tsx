import { useMemo, useState } from 'react';
import { Loader, MultiSelect, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ADD_NEW_VALUE, recentOptions, rememberOption, useOptions, type SelectOption } from './select-options';

export { ADD_NEW_VALUE, rememberOption, type SelectOption };

export interface AsyncSelectProps {
  /** Options endpoint under /api, e.g. '/assets/get-assets-options'. */
  path: string;
  value: number | null | undefined;
  onChange(value: number | null, option: SelectOption | null): void;
  label?: string;
  placeholder?: string;
  error?: string;
  /** Spec: 10 per fetch (5 for assets). */
  pageSize?: number;
  /** Label of the chosen value when it is not among the fetched options (e.g. from the loaded record). */
  initialOption?: SelectOption | null;
  /** Shows an "Add New" entry (value 0) that calls this instead of selecting; gets the text typed in the box. */
  onAddNew?: (search: string) => void;
  /** The "Add New" entry's text; a function gets the text typed in the box (e.g. `Create "…"`). */
  addNewLabel?: string | ((search: string) => string);
  /** Called as the user types in the box. */
  onSearchChange?: (search: string) => void;
  extraQuery?: Record<string, string | number>;
  required?: boolean;
  disabled?: boolean;
  clearable?: boolean;
  withAsterisk?: boolean;
  testId?: string;
}

/** A searchable select whose options are fetched as the user types; optional "Add New" entry. */
export function AsyncSelect(props: AsyncSelectProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [chosenLabel, setChosenLabel] = useState<string | null>(null);
  // the search box shows the chosen label after a pick: do not search by it
  const shownLabel = chosenLabel ?? (props.initialOption && props.initialOption.value === props.value ? props.initialOption.label : null);
  const effectiveSearch = search === shownLabel ? '' : search;
  const query = useOptions(props.path, effectiveSearch, props.pageSize ?? 10, props.extraQuery);

  const options = useMemo(() => {
    const byValue = new Map<number, SelectOption>();
    for (const o of query.data ?? []) byValue.set(o.value, o);
    const known = [...(props.initialOption ? [props.initialOption] : []), ...recentOptions(props.path)];
    if (props.value && !byValue.has(props.value)) {
      const o = known.find((k) => k.value === props.value);
      if (o) byValue.set(o.value, o);
    }
    return [...byValue.values()];
  }, [query.data, props.initialOption, props.path, props.value]);

  const data = [
    ...(props.onAddNew
      ? [
          {
            value: String(ADD_NEW_VALUE),
            label: (typeof props.addNewLabel === 'function' ? props.addNewLabel(effectiveSearch.trim()) : props.addNewLabel) || t('select.addNew'),
          },
        ]
      : []),
    ...options.map((o) => ({ value: String(o.value), label: o.label })),
  ];

  return (
    <Select
      label={props.label}
      // a filter has no visible label: its placeholder names it
      aria-label={props.label ? undefined : props.placeholder}
      placeholder={props.placeholder ?? t('select.search')}
      error={props.error}
      required={props.required}
      withAsterisk={props.withAsterisk}
      disabled={props.disabled}
      clearable={props.clearable ?? !props.required}
      searchable
      searchValue={search}
      onSearchChange={(s) => {
        setSearch(s);
        props.onSearchChange?.(s);
      }}
      filter={({ options: o }) => o}
      data={data}
      value={props.value ? String(props.value) : null}
      nothingFoundMessage={query.isFetching ? t('select.loading') : t('select.nothingFound')}
      rightSection={query.isFetching ? <Loader size={14} /> : undefined}
      onChange={(v) => {
        if (v === String(ADD_NEW_VALUE)) {
          props.onAddNew?.(effectiveSearch.trim());
          return;
        }
        const option = v ? (options.find((o) => String(o.value) === v) ?? null) : null;
        if (option) rememberOption(props.path, option);
        setChosenLabel(option?.label ?? null);
        props.onChange(option ? option.value : null, option);
      }}
      comboboxProps={{ withinPortal: true }}
      data-testid={props.testId}
    />
  );
}

export interface AsyncMultiSelectProps extends Omit<AsyncSelectProps, 'value' | 'onChange' | 'initialOption' | 'addNewLabel' | 'onSearchChange' | 'clearable'> {
  value: number[];
  onChange(value: number[], options: SelectOption[]): void;
  /** Labels of the chosen values when they are not among the fetched options. */
  initialOptions?: SelectOption[];
  /** The "Add New" entry's text (default "Add New"). */
  addNewLabel?: string;
}

/** Several values from an options endpoint, searched as the user types. */
export function AsyncMultiSelect(props: AsyncMultiSelectProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const query = useOptions(props.path, search, props.pageSize ?? 10, props.extraQuery);
  const options = useMemo(() => {
    const byValue = new Map<number, SelectOption>();
    const known = [...(props.initialOptions ?? []), ...recentOptions(props.path)];
    for (const v of props.value) {
      const o = known.find((k) => k.value === v);
      if (o) byValue.set(v, o);
    }
    for (const o of query.data ?? []) byValue.set(o.value, o);
    return [...byValue.values()];
  }, [query.data, props.initialOptions, props.path, props.value]);
  return (
    <MultiSelect
      label={props.label}
      placeholder={props.placeholder ?? t('select.search')}
      error={props.error}
      required={props.required}
      withAsterisk={props.withAsterisk}
      disabled={props.disabled}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: o }) => o}
      data={[
        ...(props.onAddNew ? [{ value: String(ADD_NEW_VALUE), label: props.addNewLabel || t('select.addNew') }] : []),
        ...options.map((o) => ({ value: String(o.value), label: o.label })),
      ]}
      value={props.value.map(String)}
      nothingFoundMessage={query.isFetching ? t('select.loading') : t('select.nothingFound')}
      onChange={(vals) => {
        // "Add New" (value 0) opens the creation dialog instead of joining the values
        if (vals.includes(String(ADD_NEW_VALUE))) {
          props.onAddNew?.(search.trim());
          return;
        }
        const chosen = vals.map((v) => options.find((o) => String(o.value) === v)).filter((o): o is SelectOption => !!o);
        chosen.forEach((o) => rememberOption(props.path, o));
        props.onChange(
          chosen.map((o) => o.value),
          chosen,
        );
      }}
      comboboxProps={{ withinPortal: true }}
      data-testid={props.testId}
    />
  );
}
