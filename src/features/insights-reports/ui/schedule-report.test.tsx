import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { ScheduleReportButton } from './schedule-report';
// the filters' names are the insights screen's, loaded with it
import '../../analytics/ui/insights-i18n';

const person = (id: number, firstName: string, role: string) => ({ id, role, firstName, lastName: 'Lee', email: `${firstName.toLowerCase()}@acme.test` });
const appData = {
  loggedInUser: person(1, 'Ann', 'manager'),
  workers: [person(1, 'Ann', 'manager'), person(2, 'Bob', 'manager'), person(3, 'Cy', 'worker')],
  company: { currency: 'USD' },
};
const report = (id: number, over: object = {}) => ({
  id,
  frequency: 'monthly',
  format: 'pdf',
  filters: { teamId: 5 },
  recipientIds: [1, 2],
  nextSendAt: '2026-04-01T04:00:00.000Z',
  lastSentAt: null,
  createdAt: '2026-03-02T08:00:00.000Z',
  ...over,
});

describe('my scheduled insights reports', () => {
  it('edits a report in the same form, filled with it, keeping its own filters unless the screen’s are chosen', async () => {
    let reports = [report(7)];
    const calls = stubFetch({
      'GET /api/user/get-app-data': () => ({ body: appData }),
      'GET /api/insights-reports/list-reports': () => ({ body: { reports } }),
      'PUT /api/insights-reports/update-report/7': (_url, init) => {
        const body = JSON.parse(String(init.body));
        reports = [report(7, body)];
        return { body: { message: 'Report updated', report: reports[0], reports } };
      },
    });
    renderWithProviders(<ScheduleReportButton filters={{ assetId: '9' }} />);
    await userEvent.click(screen.getByTestId('schedule-report'));
    await userEvent.click(await screen.findByTestId('scheduled-report-edit'));

    expect(screen.getByTestId('schedule-report-editing')).toHaveTextContent('Editing a scheduled report');
    // Filled: monthly, PDF, the report's team filter, not the screen's asset; Bob (the owner is not offered) is sent back below.
    expect(screen.getByRole('radio', { name: 'Monthly' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'PDF attached' })).toBeChecked();
    expect(screen.getByTestId('schedule-report-filters')).toHaveTextContent('Team');
    expect(screen.getByTestId('schedule-report-filters')).not.toHaveTextContent('Asset');

    await userEvent.click(screen.getByRole('radio', { name: 'Weekly' }));
    await userEvent.click(screen.getByTestId('schedule-report-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const sent = JSON.parse(String(calls.find((c) => c.method === 'PUT')!.init.body));
    expect(sent).toEqual({ frequency: 'weekly', format: 'pdf', filters: { teamId: 5 }, recipientIds: [2] });
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    // Back to a new report's form, the list showing the change.
    await waitFor(() => expect(screen.queryByTestId('schedule-report-editing')).toBeNull());
    expect(within(screen.getByTestId('scheduled-report')).getByText('Weekly')).toBeInTheDocument();

    // Editing again with the screen's filters instead.
    await userEvent.click(screen.getByTestId('scheduled-report-edit'));
    await userEvent.click(screen.getByTestId('schedule-report-screen-filters'));
    expect(screen.getByTestId('schedule-report-filters')).toHaveTextContent('Asset');
    await userEvent.click(screen.getByTestId('schedule-report-save'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(JSON.parse(String(calls.filter((c) => c.method === 'PUT')[1].init.body)).filters).toEqual({ assetId: 9 });
  });

  it('deletes a report only after confirming', async () => {
    let deleted = 0;
    stubFetch({
      'GET /api/user/get-app-data': () => ({ body: appData }),
      'GET /api/insights-reports/list-reports': () => ({ body: { reports: deleted ? [] : [report(7)] } }),
      'DELETE /api/insights-reports/delete-report/7': () => {
        deleted += 1;
        return { body: { message: 'Report deleted', reports: [] } };
      },
    });
    renderWithProviders(<ScheduleReportButton filters={{}} />);
    await userEvent.click(screen.getByTestId('schedule-report'));
    await userEvent.click(await screen.findByTestId('scheduled-report-delete'));
    expect(await screen.findByText('Delete this scheduled report? It will not be sent any more.')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('confirm-cancel'));
    await waitFor(() => expect(screen.queryByTestId('confirm-cancel')).toBeNull());
    expect(deleted).toBe(0);
    expect(screen.getByTestId('scheduled-report')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('scheduled-report-delete'));
    await userEvent.click(await screen.findByTestId('confirm-yes'));
    expect(await screen.findByText('No scheduled report yet.')).toBeInTheDocument();
    expect(deleted).toBe(1);
  });
});
