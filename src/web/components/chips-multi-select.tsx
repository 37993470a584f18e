import { CheckIcon, Combobox, Group, Pill, PillsInput, useCombobox } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface ChipOption {
  value: string;
  label: string;
}

export interface ChipsMultiSelectProps {
  data: ChipOption[];
  value: string[];
  onChange(value: string[]): void;
  placeholder?: string;
  label?: string;
  /** Chips shown before the "+ N more" chip (spec: 3). */
  maxChips?: number;
  w?: number | string;
  'aria-label'?: string;
  testId?: string;
}

/** A multi-select that shows at most `maxChips` chips, then a "+ N more" chip (spec section 9). */
export function ChipsMultiSelect({ data, value, onChange, placeholder, label, maxChips = 3, w, testId, ...rest }: ChipsMultiSelectProps) {
  const { t } = useTranslation();
  const combobox = useCombobox({
    onDropdownClose: () => combobox.resetSelectedOption(),
    onDropdownOpen: () => combobox.updateSelectedOptionIndex('active'),
  });
  const toggle = (v: string) => onChange(value.includes(v) ? value.filter((x) => x !== v) : [...value, v]);
  const labelOf = (v: string) => data.find((d) => d.value === v)?.label ?? v;
  const shown = value.slice(0, maxChips);
  const more = value.length - shown.length;

  return (
    <Combobox store={combobox} onOptionSubmit={toggle} withinPortal>
      <Combobox.DropdownTarget>
        <PillsInput pointer label={label} w={w} onClick={() => combobox.toggleDropdown()} data-testid={testId}>
          <Pill.Group>
            {shown.map((v) => (
              <Pill key={v} withRemoveButton onRemove={() => toggle(v)} removeButtonProps={{ 'aria-label': t('actions.remove') }}>
                {labelOf(v)}
              </Pill>
            ))}
            {more > 0 && <Pill data-testid="more-chip">{t('filters.more', { count: more })}</Pill>}
            {value.length === 0 && <PillsInput.Field readOnly placeholder={placeholder} aria-label={rest['aria-label'] ?? placeholder} />}
            <Combobox.EventsTarget>
              <PillsInput.Field
                type="hidden"
                aria-label={rest['aria-label'] ?? placeholder}
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
