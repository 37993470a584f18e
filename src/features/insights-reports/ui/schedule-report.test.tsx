import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer, type RealSession } from '../../../web/test/real-api';
import { withTenant } from '../../../server/db/client';
import { assets } from '../../../server/db/schema';
import { masterRows } from '../../assets/test-fixtures';
import { APP_DATA_KEY } from '../../../web/lib/app-data';
import { ScheduleReportButton } from './schedule-report';
// the filters' names are the insights screen's, loaded with it
import '../../analytics/ui/insights-i18n';

const server = realServer();

/**
 * Ann Lee, a manager, signed in; Bob, another manager; a team and an asset (the master rows, inserted as the API
 * tests do); Ann's monthly PDF report on the team, to Bob too, through the API.
 */
async function annWithAReport() {
  const session = await server.signIn('manager', { fields: { firstName: 'Ann', lastName: 'Lee' } });
  const { org, user: ann } = session;
  const bob = await org.as('manager', { firstName: 'Bob', lastName: 'Lee' });
  const m = await masterRows(server.test, org.orgId);
  const asset = await withTenant(server.test.database.db, org.orgId, async (tx) => {
    const [row] = await tx.insert(assets).values({ orgId: org.orgId, name: 'Pump', date: '2024-01-01', assetCategoryId: m.assetCategory.id }).returning();
    return row;
  });
  const added = await ann.post('/api/insights-reports/add-report', {
    frequency: 'monthly',
    format: 'pdf',
    filters: { teamId: m.team.id },
    recipientIds: [bob.userId],
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return { session, ann, bob, teamId: m.team.id, assetId: asset.id, reportId: added.body.report.id as number };
}

const reportsOf = async (s: RealSession) => (await s.user.get('/api/insights-reports/list-reports')).body.reports as Record<string, unknown>[];

describe('my scheduled insights reports', () => {
  it('edits a report in the same form, filled with it, keeping its own filters unless the screen’s are chosen', async () => {
    const { session, ann, bob, teamId, assetId, reportId } = await annWithAReport();
    const { calls } = session;
    const { queryClient } = renderWithProviders(<ScheduleReportButton filters={{ assetId: String(assetId) }} />);
    await userEvent.click(screen.getByTestId('schedule-report'));
    // The form leaves the owner out of the recipients it fills by the signed-in user of the app data: Edit is clicked
    // once that has come (the real server answers it after the list at times; an Edit before keeps the owner in).
    await waitFor(() => expect(queryClient.getQueryData(APP_DATA_KEY)).toBeTruthy());
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
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.url.pathname).toBe(`/api/insights-reports/update-report/${reportId}`);
    expect(put.body).toEqual({ frequency: 'weekly', format: 'pdf', filters: { teamId }, recipientIds: [bob.userId] });
    expect(put.status).toBe(200);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    // Back to a new report's form, the list showing the change.
    await waitFor(() => expect(screen.queryByTestId('schedule-report-editing')).toBeNull());
    expect(within(screen.getByTestId('scheduled-report')).getByText('Weekly')).toBeInTheDocument();
    // the server kept one report, changed: weekly, the team's, to Ann (the owner) and Bob
    expect(await reportsOf(session)).toMatchObject([
      { id: reportId, frequency: 'weekly', format: 'pdf', filters: { teamId }, recipientIds: [ann.userId, bob.userId] },
    ]);

    // Editing again with the screen's filters instead.
    await userEvent.click(screen.getByTestId('scheduled-report-edit'));
    await userEvent.click(screen.getByTestId('schedule-report-screen-filters'));
    expect(screen.getByTestId('schedule-report-filters')).toHaveTextContent('Asset');
    await userEvent.click(screen.getByTestId('schedule-report-save'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect((calls.filter((c) => c.method === 'PUT')[1].body as { filters: unknown }).filters).toEqual({ assetId });
    await waitFor(async () => expect((await reportsOf(session))[0].filters).toEqual({ assetId }));
  });

  it('deletes a report only after confirming', async () => {
    const { session } = await annWithAReport();
    const { calls } = session;
    renderWithProviders(<ScheduleReportButton filters={{}} />);
    await userEvent.click(screen.getByTestId('schedule-report'));
    await userEvent.click(await screen.findByTestId('scheduled-report-delete'));
    expect(await screen.findByText('Delete this scheduled report? It will not be sent any more.')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('confirm-cancel'));
    await waitFor(() => expect(screen.queryByTestId('confirm-cancel')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    expect(screen.getByTestId('scheduled-report')).toBeInTheDocument();
    expect(await reportsOf(session)).toHaveLength(1);

    await userEvent.click(screen.getByTestId('scheduled-report-delete'));
    await userEvent.click(await screen.findByTestId('confirm-yes'));
    expect(await screen.findByText('No scheduled report yet.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.status)).toEqual([200]);
    expect(await reportsOf(session)).toEqual([]);
  });
});
