import { useEffect, useState } from 'react';
import { Group, Input } from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { calendarA11y, DateBox } from './day-field';

export interface DateTimeFieldProps {
  label: string;
  /** 'YYYY-MM-DD HH:mm:ss' (local time, what Mantine's pickers hold) or null. */
  value: string | null;
  onChange(value: string | null): void;
  error?: string;
  required?: boolean;
  /** The day box's test id; the time box gets `<testId>-time`. */
  testId: string;
}

const dayOf = (value: string | null) => (value ? value.slice(0, 10) : null);
const timeOf = (value: string | null) => (value && value.length >= 16 ? value.slice(11, 16) : '');

/**
 * A date and time typed or picked: the day in a date box (the day format of every box and list, decision 066, or
 * the calendar) and the time in a native time box (the browser's 12 or 24 hours, 5-minute steps), where "0800" is
 * typed in four keys and the arrows step it. The value is
 * complete once a day is given; a time without a day waits for it, a day without a time is 00:00.
 */
export function DateTimeField(props: DateTimeFieldProps) {
  const { t } = useTranslation();
  const [time, setTime] = useState(timeOf(props.value));
  useEffect(() => setTime(timeOf(props.value)), [props.value]);
  const emit = (day: string | null, hhmm: string) => props.onChange(day ? `${day} ${hhmm || '00:00'}:00` : null);
  return (
    <Input.Wrapper label={props.label} withAsterisk={props.required} error={props.error}>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <DateBox
          {...calendarA11y(t)}
          aria-label={props.label}
          value={dayOf(props.value)}
          onChange={(d) => emit(d ? String(d).slice(0, 10) : null, time)}
          error={!!props.error}
          clearable
          clearButtonProps={{ 'aria-label': t('a11y.clear') }}
          style={{ flex: '1 1 auto', minWidth: 0 }}
          data-testid={props.testId}
          popoverProps={{ withinPortal: true }}
        />
        <TimeInput
          aria-label={`${props.label} (${t('a11y.time')})`}
          value={time}
          step={300}
          onChange={(e) => {
            setTime(e.currentTarget.value);
            const day = dayOf(props.value);
            if (day) emit(day, e.currentTarget.value);
          }}
          error={!!props.error}
          style={{ flex: '0 0 8.5rem' }}
          data-testid={`${props.testId}-time`}
        />
      </Group>
    </Input.Wrapper>
  );
}
