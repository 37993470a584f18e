// The interactive controls (deferred-controls.tsx): loaded on the user's first interaction, not with the first
// page. Mantine's Tooltip and Menu (floating-ui, Popover), and the controls built on Combobox.
import type { ReactElement } from 'react';
import { CheckIcon, Checkbox, Combobox, Group, Menu, Pill, PillsInput, Select, Tooltip, useCombobox } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from '../../shared/page-sizes';
import { SelectedChips, type ChipsMultiSelectProps } from './chips-multi-select';
import type { Column } from './data-table';

export { Menu, Tooltip };
/** The real picker of a list's searchable filter (async-select-filter.tsx). */
export { AsyncSelect } from './async-select';

/** ChipsMultiSelect with its dropdown. */
export function ChipsMultiSelectControl(props: ChipsMultiSelectProps) {
  const { data, value, onChange, placeholder, label, w, testId } = props;
  const combobox = useCombobox({
    onDropdownClose: () => combobox.resetSelectedOption(),
    onDropdownOpen: () => combobox.updateSelectedOptionIndex('active'),
  });
  const toggle = (v: string) => onChange(value.includes(v) ? value.filter((x) => x !== v) : [...value, v]);
  const ariaLabel = props['aria-label'] ?? placeholder;

  return (
    <Combobox store={combobox} onOptionSubmit={toggle} withinPortal>
      <Combobox.DropdownTarget>
        <PillsInput pointer label={label} w={w} onClick={() => combobox.toggleDropdown()} data-testid={testId}>
          <Pill.Group>
            <SelectedChips {...props} />
            {value.length === 0 && <PillsInput.Field readOnly placeholder={placeholder} aria-label={ariaLabel} />}
            <Combobox.EventsTarget>
              <PillsInput.Field
                type="hidden"
                aria-label={ariaLabel}
                onBlur={() => combobox.closeDropdown()}
                onKeyDown={(e) => {
                  if (e.key === 'Backspace' && value.length > 0) onChange(value.slice(0, -1));
                }}
              />
            </Combobox.EventsTarget>
          </Pill.Group>
        </PillsInput>
      </Combobox.DropdownTarget>
      <Combobox.Dropdown>
        <Combobox.Options>
          {data.map((item) => (
            <Combobox.Option value={item.value} key={item.value} active={value.includes(item.value)}>
              <Group gap="sm">
                {value.includes(item.value) ? <CheckIcon size={12} /> : <span style={{ width: 12 }} />}
                <span>{item.label}</span>
              </Group>
            </Combobox.Option>
          ))}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}

/** The rows-per-page select of a server-paged table. */
export function PageSizeSelect({ value, onChange }: { value: number; onChange(size: number): void }) {
  const { t } = useTranslation();
  return (
    <Select
      aria-label={t('table.rowsPerPage')}
      data-testid="page-size"
      w={80}
      size="xs"
      allowDeselect={false}
      data={PAGE_SIZES.map(String)}
      value={String(value)}
      onChange={(v) => v && onChange(Number(v))}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** The column chooser: a menu with a checkbox per hideable column; the last visible one stays. */
export function ColumnChooserMenu<T>({
  columns,
  hidden,
  onToggle,
  target,
}: {
  columns: Column<T>[];
  hidden: string[];
  onToggle(key: string): void;
  target: ReactElement;
}) {
  const { t } = useTranslation();
  const hideable = columns.filter((c) => c.hideable !== false);
  const shown = hideable.filter((c) => !hidden.includes(c.key));
  return (
    <Menu closeOnItemClick={false} position="bottom-end" withinPortal>
      <Menu.Target>
        <Tooltip label={t('table.columns')}>{target}</Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('table.columns')}</Menu.Label>
        {hideable.map((c) => (
          <Menu.Item
            key={c.key}
            onClick={() => onToggle(c.key)}
            // the last visible column stays: a table needs one
            disabled={shown.length === 1 && !hidden.includes(c.key)}
            leftSection={
              // no <label>: a label click would send a second click to its input and toggle twice
              <Checkbox readOnly size="xs" tabIndex={-1} aria-hidden checked={!hidden.includes(c.key)} style={{ pointerEvents: 'none' }} />
            }
          >
            {c.header}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
