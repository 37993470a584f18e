import { Pill, PillsInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Deferred, openWhenReady } from './deferred-controls';

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

/** The chips of the selected values: at most `maxChips`, then "+ N more" (the input's content, open or not). */
export function SelectedChips({ data, value, onChange, maxChips = 3 }: Pick<ChipsMultiSelectProps, 'data' | 'value' | 'onChange' | 'maxChips'>) {
  const { t } = useTranslation();
  const toggle = (v: string) => onChange(value.includes(v) ? value.filter((x) => x !== v) : [...value, v]);
  const labelOf = (v: string) => data.find((d) => d.value === v)?.label ?? v;
  const shown = value.slice(0, maxChips);
  const more = value.length - shown.length;
  return (
    <>
      {shown.map((v) => (
        <Pill key={v} withRemoveButton onRemove={() => toggle(v)} removeButtonProps={{ 'aria-label': t('actions.remove') }}>
          {labelOf(v)}
        </Pill>
      ))}
      {more > 0 && <Pill data-testid="more-chip">{t('filters.more', { count: more })}</Pill>}
    </>
  );
}

/**
 * A multi-select that shows at most `maxChips` chips, then a "+ N more" chip (spec section 9). Its dropdown
 * (Mantine's Combobox) comes with the interactive controls (deferred-controls.tsx); until then the same input
 * shows the chips, and a click opens the dropdown once it has arrived.
 */
export function ChipsMultiSelect(props: ChipsMultiSelectProps) {
  const { value, onChange, placeholder, label, w, testId } = props;
  const ariaLabel = props['aria-label'] ?? placeholder;
  return (
    <Deferred
      placeholder={
        <PillsInput pointer label={label} w={w} onClick={openWhenReady} data-testid={testId}>
          <Pill.Group>
            <SelectedChips {...props} />
            {value.length === 0 && <PillsInput.Field readOnly placeholder={placeholder} aria-label={ariaLabel} />}
            <PillsInput.Field
              type="hidden"
              aria-label={ariaLabel}
              onKeyDown={(e) => {
                if (e.key === 'Backspace' && value.length > 0) onChange(value.slice(0, -1));
              }}
            />
          </Pill.Group>
        </PillsInput>
      }
    >
      {(c) => <c.ChipsMultiSelectControl {...props} />}
    </Deferred>
  );
}
