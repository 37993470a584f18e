import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../test/render';
import { DateTimeField } from './date-time-field';
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
    await userEvent.type(screen.getByTestId('start'), '26/11/2026');
    await waitFor(() => expect(last).toBe('2026-11-26 08:00:00'));
    fireEvent.change(screen.getByTestId('start-time'), { target: { value: '09:30' } });
    expect(last).toBe('2026-11-26 09:30:00');
  });

  it('shows a stored value in its two boxes', () => {
    renderWithProviders(<Field initial="2026-03-04 17:05:00" />);
    expect(screen.getByTestId('start')).toHaveValue('04 Mar 2026');
    expect(screen.getByTestId('start-time')).toHaveValue('17:05');
  });

  it('reads the shown format, day-first numbers and ISO, in both languages, and refuses impossible days', () => {
    for (const [typed, day] of [
      ['04 Mar 2026', '2026-03-04'],
      ['4 march 2026', '2026-03-04'],
      ['٠٤ مارس ٢٠٢٦', '2026-03-04'],
      ['04 مارس 2026', '2026-03-04'],
      // Numbers are day first in every box: 12/10 is the 12th of October, never December.
      ['12/10/2026', '2026-10-12'],
      ['2026-10-12', '2026-10-12'],
      ['26/11/2026', '2026-11-26'],
      ['31/02/2024', null],
      ['02/30/2026', null],
      ['04 Mat 2026', null],
    ] as [string, string | null][])
      expect(parseDay(typed), typed).toBe(day);
  });

  it('a day box and a date-time box show a stored day the same way, as the lists write it', () => {
    renderWithProviders(
      <>
        <Field initial="2026-10-12 09:00:00" />
      </>,
    );
    expect(screen.getByTestId('start')).toHaveValue('12 Oct 2026');
    expect(screen.getByTestId('start')).toHaveAttribute('placeholder', 'DD MMM YYYY, e.g. 26 Nov 2026');
  });
});
