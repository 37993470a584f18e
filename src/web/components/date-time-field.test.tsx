import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../test/render';
import { DateTimeField, parseMonthFirstDay } from './date-time-field';
import { parseDay } from './day-field';

let last: string | null = null;
function Field({ initial = null }: { initial?: string | null }) {
  const [value, setValue] = useState<string | null>(initial);
  last = value;
  return (
    <DateTimeField
      label="Start"
      value={value}
      onChange={(v) => {
        last = v;
        setValue(v);
      }}
      testId="start"
    />
  );
}

describe('DateTimeField', () => {
  it('takes a typed day and a typed time', async () => {
    renderWithProviders(<Field />);
    fireEvent.change(screen.getByTestId('start-time'), { target: { value: '08:00' } });
    expect(last).toBeNull(); // a time alone waits for its day
    await userEvent.type(screen.getByTestId('start'), '11/26/2026');
    await waitFor(() => expect(last).toBe('2026-11-26 08:00:00'));
    fireEvent.change(screen.getByTestId('start-time'), { target: { value: '09:30' } });
    expect(last).toBe('2026-11-26 09:30:00');
  });

  it('shows a stored value in its two boxes', () => {
    renderWithProviders(<Field initial="2026-03-04 17:05:00" />);
    expect(screen.getByTestId('start')).toHaveValue('03/04/2026');
    expect(screen.getByTestId('start-time')).toHaveValue('17:05');
  });

  it('reads month-first days and refuses impossible ones', () => {
    expect(parseMonthFirstDay('3/4/2026')).toBe('2026-03-04');
    expect(parseMonthFirstDay('02/30/2026')).toBeNull();
    expect(parseMonthFirstDay('26/11/2026')).toBeNull();
    // Day first (the lists' dates, DayField): the same calendar check, 31/02 refused rather than moved to March.
    expect(parseDay('26/11/2026')).toBe('2026-11-26');
    expect(parseDay('31/02/2024')).toBeNull();
  });
});
