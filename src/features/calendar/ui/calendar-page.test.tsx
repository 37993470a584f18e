import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import type { CalendarEntry } from '../calendar.schema';
import CalendarPage from './calendar-page';

const now = new Date();
/** A moment this month, in the reader's zone: the month view shows it. */
const day = (d: number, h = 10) => new Date(now.getFullYear(), now.getMonth(), d, h).toISOString();
const ymd = (d: number) => `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

const entry = (over: Partial<CalendarEntry>): CalendarEntry => ({
  kind: 'work-order',
  id: 1,
  key: 'work-order:1',
  displayId: 'WO-0001',
  title: 'Replace belt',
  date: day(10),
  day: ymd(10),
  allDay: false,
  status: 'assigned',
  priority: 'medium',
  asset: null,
  overdue: false,
  updatedAt: '2026-11-26T06:00:00.000Z',
  version: null,
  createOn: null,
  ...over,
});

const ENTRIES = [
  entry({}),
  entry({ id: 2, key: 'work-order:2', displayId: 'WO-0002', title: 'Late check', date: day(3), day: ymd(3), overdue: true }),
  entry({
    kind: 'maintenance-order',
    id: 1,
    key: 'maintenance-order:1',
    displayId: 'PM-0001',
    title: 'Pump service',
    date: `${ymd(12)}T00:00:00.000Z`,
    day: ymd(12),
    allDay: true,
    status: 'new',
    priority: null,
    updatedAt: null,
    version: 2,
  }),
  entry({
    kind: 'planned',
    id: 4,
    key: `planned:4:1:${ymd(20)}`,
    displayId: 'Weekly lubrication',
    title: 'Lubricate',
    date: `${ymd(20)}T00:00:00.000Z`,
    day: ymd(20),
    allDay: true,
    status: 'planned',
    updatedAt: null,
    createOn: ymd(18),
  }),
  // Done: shown, not draggable (the server refuses its move too).
  entry({ id: 5, key: 'work-order:5', displayId: 'WO-0005', title: 'Done job', date: day(14), day: ymd(14), status: 'completed' }),
  // 23:00 on the 15th on this browser's clock, the 16th in the organisation's zone: it sits on the organisation's day.
  entry({ id: 6, key: 'work-order:6', displayId: 'WO-0006', title: 'Night job', date: day(15, 23), day: ymd(16) }),
];

function serve(role: 'manager' | 'worker', list: () => { status?: number; body?: unknown }) {
  return stubFetch({
    'GET /api/user/get-app-data': () => ({
      body: {
        loggedInUser: { id: 1, role, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
        workers: [{ id: 7, firstName: 'Marcus', lastName: 'Lee', email: 'marcus@example.com' }],
      },
    }),
    'GET /api/calendar/list-calendar-entries': list,
    'GET /api/teams/get-teams': () => ({ body: { teams: [] } }),
  });
}

const rendered = (key: string) => document.querySelector(`[data-entry="${key}"]`);

describe('calendar page', () => {
  it('asks for the visible range and shows each kind in its style; a manager may drag orders, not planned work', async () => {
    const calls = serve('manager', () => ({ body: { entries: ENTRIES, truncated: false, timeZone: 'Asia/Riyadh' } }));
    renderWithProviders(<CalendarPage />);
    await waitFor(() => expect(rendered('work-order:1')).not.toBeNull());
    const list = calls.find((c) => c.url.pathname === '/api/calendar/list-calendar-entries')!;
    const from = Date.parse(list.url.searchParams.get('from')!);
    const to = Date.parse(list.url.searchParams.get('to')!);
    // The visible days, as days: the server reads them as the organisation's.
    expect(list.url.searchParams.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(to - from).toBeGreaterThan(27 * 86_400_000);
    expect(to - from).toBeLessThanOrEqual(62 * 86_400_000);

    expect(rendered('work-order:1')!.className).toContain('cmms-entry-work-order');
    expect(rendered('work-order:1')!.className).toContain('fc-event-draggable');
    expect(rendered('work-order:1')!.textContent).toContain('WO-0001 · Replace belt');
    expect(rendered('work-order:2')!.className).toContain('cmms-entry-overdue');
    expect(rendered('maintenance-order:1')!.closest(`[data-date="${ymd(12)}"]`)).not.toBeNull();
    expect(rendered('work-order:6')!.closest(`[data-date="${ymd(16)}"]`)).not.toBeNull();
    expect(rendered('work-order:5')!.className).toContain('cmms-entry-closed');
    expect(rendered('work-order:5')!.className).not.toContain('fc-event-draggable');
    const planned = rendered(`planned:4:1:${ymd(20)}`)!;
    expect(planned.className).toContain('cmms-entry-planned');
    expect(planned.className).not.toContain('fc-event-draggable');
    expect(screen.getByTestId('calendar-legend')).toHaveTextContent('Planned (not created yet)');
    expect(screen.getByTestId('calendar-assignee')).toBeInTheDocument();
    expect(screen.queryByTestId('calendar-empty')).toBeNull();
  });

  it('lets a worker move nothing and offers no assignee filter', async () => {
    serve('worker', () => ({ body: { entries: ENTRIES, truncated: false } }));
    renderWithProviders(<CalendarPage />);
    await waitFor(() => expect(rendered('work-order:1')).not.toBeNull());
    await waitFor(() => expect(screen.queryByTestId('calendar-assignee')).toBeNull());
    expect(document.querySelectorAll('.fc-event-draggable')).toHaveLength(0);
  });

  it('says when nothing is due, and when the calendar cannot be read', async () => {
    serve('manager', () => ({ body: { entries: [], truncated: false } }));
    const { unmount } = renderWithProviders(<CalendarPage />);
    expect(await screen.findByTestId('calendar-empty')).toHaveTextContent('Nothing is due in this period');
    unmount();
    serve('manager', () => ({ status: 500, body: { error: 'Oops' } }));
    renderWithProviders(<CalendarPage />);
    expect(await screen.findByTestId('calendar-error')).toHaveTextContent('Failed to load the calendar');
  });
});
