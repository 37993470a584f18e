import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer, type Role } from '../../../web/test/real-api';
import type { Client } from '../../../server/test/harness';
import type { MeterDto } from '../meters.schema';
import { twoAssets } from '../test-fixtures';
import { AssetMetersPanel } from './asset-meters-panel';

const server = realServer();

/** A user of `role` signed in, and an asset of their organisation (the meters API tests' fixture), with a "Running hours" counter in h unless `meter` is false. */
async function assetFor(role: Role, meter = true) {
  const session = await server.signIn(role);
  const { pump } = await twoAssets(server.test, session.org.orgId);
  let meterId = 0;
  if (meter) {
    const added = await session.org.admin.post('/api/meters/add-meter', { assetId: pump.id, name: 'Running hours', kind: 'counter', unit: 'h' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    meterId = (added.body.meters as MeterDto[])[0].id;
  }
  return { ...session, assetId: pump.id, meterId };
}

const metersOf = async (c: Client, assetId: number) => (await c.get(`/api/meters/list-meters?assetId=${assetId}`)).body.meters as MeterDto[];

describe('asset meters panel', () => {
  it('a worker sees the empty state without Add Meter, and an error with Retry when the list fails', async () => {
    const { assetId, fail } = await assetFor('worker', false);
    // a failing list is what the real server does not give on demand: a 500 answered in its place, until Retry
    const recover = fail('GET /api/meters/list-meters', { status: 500, body: { error: 'Internal server error' } });
    renderWithProviders(<AssetMetersPanel assetId={assetId} />);
    expect(await screen.findByTestId('meters-error')).toHaveTextContent('Failed to load meters');
    recover();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No meters yet')).toBeInTheDocument();
    expect(screen.getByText('A manager adds the meters of this asset.')).toBeInTheDocument();
    expect(screen.queryByTestId('meters-add')).toBeNull();
  });

  it('enters a reading: the form shows the schema message, then sends the value and time and shows the new latest reading', async () => {
    const { org, calls, assetId, meterId } = await assetFor('worker');
    renderWithProviders(<AssetMetersPanel assetId={assetId} />);
    expect(await screen.findByTestId('meter-latest')).toHaveTextContent('No readings yet');
    // The kind badge isolated (dir="auto"), its unit too (issue 46).
    const badge = screen.getByText('h', { selector: 'bdi' }).closest('.mantine-Badge-root');
    expect(badge).toHaveAttribute('dir', 'auto');
    await userEvent.click(screen.getByTestId('meter-enter-reading'));
    const dialog = await screen.findByTestId('reading-form');
    await userEvent.click(within(dialog).getByTestId('reading-save'));
    expect(await within(dialog).findByText('Value is required')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByTestId('reading-value'), '1500.25');
    await userEvent.click(within(dialog).getByTestId('reading-save'));
    await waitFor(() => expect(screen.getByTestId('meter-latest')).toHaveTextContent('1,500.25 h'));
    const post = calls.find((c) => c.method === 'POST')!;
    const sent = post.body as { readAt: string };
    expect(sent).toMatchObject({ meterId, value: '1500.25', reset: false });
    expect(post.status).toBe(201);
    expect(Math.abs(Date.parse(sent.readAt) - Date.now())).toBeLessThan(120_000);
    // the server kept it as the meter's latest reading, entered by hand
    expect((await metersOf(org.admin, assetId))[0].latestReading).toMatchObject({ value: 1500.25, readAt: sent.readAt, source: 'manual' });
  });

  it('the read-at box is the date box of every screen (one format, typed day first) with a time box, not a native date-time input (issue 46)', async () => {
    const { org, calls, assetId } = await assetFor('worker');
    renderWithProviders(<AssetMetersPanel assetId={assetId} />);
    await userEvent.click(await screen.findByTestId('meter-enter-reading'));
    const dialog = await screen.findByTestId('reading-form');
    expect(dialog.querySelector('input[type="datetime-local"], input[type="date"]')).toBeNull();
    const day = within(dialog).getByTestId('reading-readAt') as HTMLInputElement;
    expect(day.value).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4}$/);
    await userEvent.clear(day);
    await userEvent.type(day, '02/03/2026');
    await userEvent.tab();
    expect(day.value).toBe('02 Mar 2026');
    fireEvent.change(within(dialog).getByTestId('reading-readAt-time'), { target: { value: '08:15' } });
    await userEvent.type(within(dialog).getByTestId('reading-value'), '12');
    await userEvent.click(within(dialog).getByTestId('reading-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect((post.body as { readAt: string }).readAt).toBe(new Date(2026, 2, 2, 8, 15).toISOString());
    expect(post.status).toBe(201);
    expect((await metersOf(org.admin, assetId))[0].latestReading).toMatchObject({ value: 12, readAt: new Date(2026, 2, 2, 8, 15).toISOString() });
  });

  it('a manager deletes a meter only after confirming, told that its readings go with it', async () => {
    const { org, calls, assetId } = await assetFor('manager');
    renderWithProviders(<AssetMetersPanel assetId={assetId} />);
    await userEvent.click(await screen.findByTestId('meter-menu'));
    await userEvent.click(await screen.findByTestId('meter-delete'));
    expect(await screen.findByText('Delete the meter "Running hours" and all its readings? This cannot be undone.')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('confirm-cancel'));
    await waitFor(() => expect(screen.queryByTestId('confirm-cancel')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    expect(await metersOf(org.admin, assetId)).toHaveLength(1);
    await userEvent.click(screen.getByTestId('meter-menu'));
    await userEvent.click(await screen.findByTestId('meter-delete'));
    await userEvent.click(await screen.findByTestId('confirm-yes'));
    expect(await screen.findByText('No meters yet')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.status)).toEqual([200]);
    expect(await metersOf(org.admin, assetId)).toEqual([]);
  });

  it('lists each refused cell of a CSV import by line and column', async () => {
    const { org, calls, assetId } = await assetFor('worker');
    renderWithProviders(<AssetMetersPanel assetId={assetId} />);
    await userEvent.click(await screen.findByTestId('meters-import'));
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await userEvent.upload(input, new File(['meter,value,read at\nRunning hours,1,2026-01-01\nRunning hours,x,2026-01-02'], 'r.csv', { type: 'text/csv' }));
    await userEvent.click(screen.getByTestId('import-run'));
    const result = await screen.findByTestId('import-result');
    expect(result).toHaveTextContent('Nothing was imported');
    expect(result).toHaveTextContent('Line 3, value: Value must be a number');
    expect(calls.find((c) => c.method === 'POST')!.status).toBe(400);
    // nothing was kept: not even the good first line
    expect((await metersOf(org.admin, assetId))[0].latestReading).toBeNull();
  });
});
