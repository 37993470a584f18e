import { ComboboxChevron, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AsyncSelectProps } from './async-select';
import { Deferred, openWhenReady } from './deferred-controls';
import { recentOptions, useOptions } from './select-options';

/**
 * A list's searchable filter (asset, location): `AsyncSelect`, whose Mantine Select, Combobox, Popover and
 * floating-ui (~30 KB of gzipped JavaScript) come with the interactive controls (deferred-controls.tsx), not with
 * the list's first page (issue 46: weight). Until then the same input shows the chosen option's name (its options
 * are fetched as before), and a click opens the dropdown once it has arrived. Forms keep `AsyncSelect` itself.
 */
export function AsyncSelectFilter(props: AsyncSelectProps) {
  const { t } = useTranslation();
  const options = useOptions(props.path, '', props.pageSize ?? 10, props.extraQuery);
  const chosen = props.value
    ? [...(options.data ?? []), ...(props.initialOption ? [props.initialOption] : []), ...recentOptions(props.path)].find((o) => o.value === props.value)
    : undefined;
  return (
    <Deferred
      placeholder={
        <TextInput
          readOnly
          label={props.label}
          aria-label={props.label ? undefined : props.placeholder}
          placeholder={props.placeholder ?? t('select.search')}
          error={props.error}
          withAsterisk={props.withAsterisk}
          disabled={props.disabled}
          value={chosen?.label ?? ''}
          rightSection={<ComboboxChevron />}
          rightSectionPointerEvents="none"
          onClick={openWhenReady}
          data-testid={props.testId}
        />
      }
    >
      {(c) => <c.AsyncSelect {...props} />}
    </Deferred>
  );
}
