/** What a picker over a short list takes alike (ListPicker, TeamSelect). */
export interface ListSelectBase {
  label?: string;
  error?: string;
  withAsterisk?: boolean;
  disabled?: boolean;
  testId?: string;
}

/**
 * The Mantine Select props such a picker passes alike: searchable with the "Search…" placeholder, clearable
 * unless required, "Loading…" or "Nothing found" under an empty search, the list above dialogs.
 */
export function listSelectProps(t: (key: 'select.search' | 'select.loading' | 'select.nothingFound') => string, props: ListSelectBase, fetching: boolean) {
  return {
    label: props.label,
    placeholder: t('select.search'),
    error: props.error,
    withAsterisk: props.withAsterisk,
    disabled: props.disabled,
    searchable: true,
    clearable: !props.withAsterisk,
    nothingFoundMessage: fetching ? t('select.loading') : t('select.nothingFound'),
    comboboxProps: { withinPortal: true },
    'data-testid': props.testId,
  };
}
