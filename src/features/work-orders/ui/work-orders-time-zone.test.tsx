import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import { setDisplayTimeZone } from '../../../web/lib/format';
import WorkOrdersPage from './work-orders-page';
import { fromPicker, toPicker } from './picker-values';

// Decision 064: moments are shown on the organisation's clock, whatever the browser's (UTC in these tests).
// Due at 01:30 on 7 January 2030 in Riyadh (UTC+3) is 22:30 UTC on the 6th.
const DUE = '2030-01-06T22:30:00.000Z';
const server = realServer();

/** A manager of an organisation on `timeZone` signed in, with the order "Night shift check" due at DUE (through the API). */
async function managerOnClock(timeZone: string) {
  const session = await server.signIn('manager');
  const { admin } = session.org;
  const { company } = (await admin.get('/api/company/get-company-data')).body;
  expect((await admin.put(`/api/company/update-company/${company.id}`, { organization: company.organization, timeZone })).status).toBe(200);
  expect((await admin.post('/api/work-orders/add-work-order', { title: 'Night shift check', dueDate: DUE })).status).toBe(201);
  return session.calls;
}

afterEach(() => setDisplayTimeZone(undefined));

// A loaded machine (several runs on two cores) took over the project's 60 s for the app and the page.
describe("the work order list on the organisation's clock (decision 064)", { timeout: 180_000 }, () => {
  it('an order due at 01:30 in Riyadh shows 07 Jan, not the 6th of a UTC browser', async () => {
    const calls = await managerOnClock('Asia/Riyadh');
    renderWithProviders(<WorkOrdersPage />);
    expect(await screen.findByText('07 Jan 2030, 01:30 AM')).toBeInTheDocument();
    expect(screen.queryByText(/06 Jan 2030/)).toBeNull();
    // Its due filters (today, this week) count the organisation's days too.
    await waitFor(() =>
      expect(calls.some((c) => c.url.pathname.endsWith('/get-work-orders') && c.url.searchParams.get('timeZone') === 'Asia/Riyadh')).toBe(true),
    );
  });

  it('the same order in a UTC organisation: the 6th at 10:30 PM', async () => {
    await managerOnClock('UTC');
    renderWithProviders(<WorkOrdersPage />);
    expect(await screen.findByText('06 Jan 2030, 10:30 PM')).toBeInTheDocument();
  });
});

describe("the drawer's date-time boxes on the organisation's clock", () => {
  it("show Riyadh's wall clock and send back the same instant", () => {
    setDisplayTimeZone('Asia/Riyadh');
    expect(toPicker(DUE)).toBe('2030-01-07 01:30:00');
    expect(fromPicker('2030-01-07 01:30:00')).toBe(DUE);
    // A day moved in the box keeps the organisation's hour.
    expect(fromPicker('2030-01-08 09:00:00')).toBe('2030-01-08T06:00:00.000Z');
  });

  it("before the organisation's zone is known, the browser's", () => {
    expect(toPicker(DUE)).toBe('2030-01-06 22:30:00');
    expect(fromPicker('2030-01-06 22:30:00')).toBe(DUE);
  });
});
