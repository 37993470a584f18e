import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, Button, Group, Paper, Stack, Switch, TextInput, Title } from '@mantine/core';
import { IconPlus, IconRefresh, IconSearch, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ChipsMultiSelect, type ChipOption } from './chips-multi-select';
import { useDebouncedValue } from './use-debounced-value';
import type { FilterSpec, ListQueryState } from './use-list-query-state';
import { useCurrentUser } from '../lib/app-data';

export interface ListScreenProps {
  title: ReactNode;
  /** The add button ("Create Work Order"); hidden when absent. */
  addLabel?: string;
  onAdd?: () => void;
  onRefresh?: () => void;
  refreshing?: boolean;
  /** Filter controls (ListTextFilter, ListMultiFilter, …) shown above the table. */
  filters?: ReactNode;
  /** With `listState`, a Reset button appears when any filter is active. */
  listState?: Pick<ListQueryState, 'isFiltered' | 'reset'>;
  /** Extra buttons next to Refresh. */
  actions?: ReactNode;
  /** Statistics panel (cards) shown beside the table on wide screens, above it on narrow ones. */
  side?: ReactNode;
  children: ReactNode;
}

/** The frame of every list screen: title, Refresh, add button, filters with Reset, the table, an optional side panel. */
export function ListScreen(props: ListScreenProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" data-testid="list-screen">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} size="h3">
          {props.title}
        </Title>
        <Group gap="xs">
          {props.actions}
          {props.onRefresh && (
            <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={props.onRefresh} loading={props.refreshing}>
              {t('actions.refresh')}
            </Button>
          )}
          {props.addLabel && props.onAdd && (
            <Button leftSection={<IconPlus size={16} />} onClick={props.onAdd} data-testid="add-button">
              {props.addLabel}
            </Button>
          )}
        </Group>
      </Group>
      {/* wrap-reverse puts the side panel above the table on narrow screens; its cross axis starts at the bottom, so
          flex-end keeps the panel at the top beside the table (it no longer moves down when the rows arrive) */}
      <Box style={{ display: 'flex', gap: 'var(--mantine-spacing-md)', alignItems: 'flex-end', flexWrap: 'wrap-reverse' }}>
        <Paper withBorder p="md" radius="md" style={{ flex: '1 1 560px', minWidth: 0 }}>
          {(props.filters || props.listState?.isFiltered) && (
            <Group gap="sm" mb="md" wrap="wrap" align="flex-end">
              {props.filters}
              {props.listState?.isFiltered && (
                <Button variant="subtle" color="gray" leftSection={<IconX size={14} />} onClick={props.listState.reset} data-testid="reset-filters">
                  {t('actions.reset')}
                </Button>
              )}
            </Group>
          )}
          {props.children}
        </Paper>
        {props.side && <Box style={{ flex: '0 1 300px', minWidth: 240 }}>{props.side}</Box>}
      </Box>
    </Stack>
  );
}

/**
 * A text filter bound to the query string, debounced (spec: 300 ms for work orders and maintenance
 * requests, 500 ms for the others).
 */
export function ListTextFilter<F extends FilterSpec>(props: {
  state: ListQueryState<F>;
  name: keyof F & string;
  placeholder: string;
  debounceMs?: 300 | 500 | number;
  w?: number | string;
}) {
  const value = props.state.filters[props.name] as string;
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text, props.debounceMs ?? 500);
  const written = useRef(value);
  // follow the URL when it changes from elsewhere (Reset, back button), not when it echoes our own write
  useEffect(() => {
    if (value !== written.current) {
      written.current = value;
      setText(value);
    }
  }, [value]);
  const { setFilter } = props.state;
  useEffect(() => {
    if (debounced.trim() === value.trim()) return;
    written.current = debounced.trim() === '' ? '' : debounced;
    setFilter(props.name, debounced as never);
    // only a settled keystroke updates the URL
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  return (
    <TextInput
      w={props.w ?? 260}
      placeholder={props.placeholder}
      aria-label={props.placeholder}
      leftSection={<IconSearch size={16} />}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      data-testid={`filter-${props.name}`}
    />
  );
}

/** A multi-value filter (status, type) bound to the query string: up to 3 chips, then "+ N more". */
export function ListMultiFilter<F extends FilterSpec>(
  props: {
    state: ListQueryState<F>;
    name: keyof F & string;
    placeholder: string;
    w?: number | string;
  } & /** the choices: options, or values (a status list) each named by `label` */ (
    | { options: ChipOption[] }
    | { values: readonly string[]; label(value: string): string }
  ),
) {
  return (
    <ChipsMultiSelect
      w={props.w ?? 320}
      data={'options' in props ? props.options : props.values.map((value) => ({ value, label: props.label(value) }))}
      value={props.state.filters[props.name] as string[]}
      onChange={(v) => props.state.setFilter(props.name, v as never)}
      placeholder={props.placeholder}
      aria-label={props.placeholder}
      testId={`filter-${props.name}`}
    />
  );
}

/**
 * "Only mine": keeps the list to the signed-in user's related records (a user's related work stations, assets
 * and services, spec section 3) through the list's `relatedTo` filter, in the query string like any filter.
 */
export function ListMineFilter<F extends FilterSpec>(props: { state: ListQueryState<F>; name?: keyof F & string }) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const name = props.name ?? ('relatedTo' as keyof F & string);
  const value = props.state.filters[name] as string;
  if (!me) return null;
  return (
    <Switch
      label={t('list.onlyMine')}
      checked={value === String(me.id)}
      onChange={(e) => props.state.setFilter(name, (e.currentTarget.checked ? String(me.id) : '') as never)}
      data-testid="filter-mine"
    />
  );
}
