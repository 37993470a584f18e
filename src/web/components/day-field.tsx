import { useState } from 'react';
import { DateInput, type DateInputProps } from '@mantine/dates';
// The date boxes' Arabic (Intl's digits): registered with the boxes, not at boot (dayjs stays out of the first page).
import '../lib/dates-locale';
import { formatDay } from '../lib/format';
import { parseDayText } from '../../shared/dates';
import { DAY_INPUT_FORMAT } from '../../shared/format';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Controller, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';

/** A stored day as the reader's language writes it ("26 Nov 2026"; decision 066). */
export { formatDay };

/** 'YYYY-MM-DD' for a date picker from an ISO string. */
export const pickerDay = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : null);

/** Parses what a user types in a date box (the format shown, day-first numbers or ISO) to 'YYYY-MM-DD'. */
export const parseDay = (text: string) => parseDayText(text);

/**
 * What every date box's calendar takes: its previous/next buttons named (they hold only an icon), and no
 * weekend days in red (3.3:1 on white, and not the weekend of every reader).
 */
export const calendarA11y = (t: TFunction) => ({
  ariaLabels: {
    previousMonth: t('a11y.previousMonth'),
    nextMonth: t('a11y.nextMonth'),
    previousYear: t('a11y.previousYear'),
    nextYear: t('a11y.nextYear'),
    previousDecade: t('a11y.previousDecade'),
    nextDecade: t('a11y.nextDecade'),
  },
  weekendDays: [] as (0 | 1 | 2 | 3 | 4 | 5 | 6)[],
});

/**
 * Every date box (decision 066): Mantine's DateInput with its calendar's opening held here, so that Escape with
 * the calendar open closes the calendar only (the drawer or dialog around it stays: the input carries Mantine's
 * `data-mantine-stop-propagation` while it is open) and Enter confirms the typed day and closes the calendar
 * instead of submitting the form.
 */
export function DateBox(props: DateInputProps & { 'data-testid'?: string }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const { onFocus, onClick, onBlur, onKeyDown, onChange, getDayProps, popoverProps, ...rest } = props;
  return (
    <DateInput
      // One format per language, shown and typed (decision 066); the box reads day-first numbers and ISO too.
      valueFormat={DAY_INPUT_FORMAT[i18n.language === 'ar' ? 'ar' : 'en']}
      dateParser={parseDayText}
      placeholder={t('a11y.dayPlaceholder')}
      {...rest}
      data-mantine-stop-propagation={open ? 'true' : undefined}
      onFocus={(e) => {
        setOpen(true);
        onFocus?.(e);
      }}
      onClick={(e) => {
        setOpen(true);
        onClick?.(e);
      }}
      onBlur={(e) => {
        setOpen(false);
        onBlur?.(e);
      }}
      onChange={onChange}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          setOpen(false);
        } else if (e.key === 'Enter') {
          // The typed day is already the value (parsed as it is typed): Enter confirms it, the form stays.
          e.preventDefault();
          setOpen(false);
        } else if (e.key !== 'Tab' && e.key !== 'Shift' && e.key !== 'Escape') {
          setOpen(true);
        }
        onKeyDown?.(e);
      }}
      getDayProps={(day) => {
        const own = getDayProps?.(day);
        return {
          ...own,
          onClick: (event: React.MouseEvent<HTMLButtonElement>) => {
            own?.onClick?.(event);
            setOpen(false);
          },
        };
      }}
      popoverProps={{ ...popoverProps, opened: open }}
    />
  );
}

/** A day of a form ('YYYY-MM-DD' or null), shown and typed as the lists write it, clearable; required unless told. */
export function DayField<V extends FieldValues>(props: {
  form: UseFormReturn<V, any, any>;
  name: Path<V>;
  label: string;
  testId: string;
  disabled?: boolean;
  required?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      control={props.form.control}
      name={props.name}
      render={({ field, fieldState }) => (
        <DateBox
          {...calendarA11y(t)}
          label={props.label}
          withAsterisk={props.required ?? true}
          value={field.value}
          onChange={(v) => field.onChange(v ? String(v).slice(0, 10) : null)}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
          disabled={props.disabled}
          clearable
          clearButtonProps={{ 'aria-label': t('a11y.clear') }}
          data-testid={props.testId}
          popoverProps={{ withinPortal: true }}
        />
      )}
    />
  );
}
