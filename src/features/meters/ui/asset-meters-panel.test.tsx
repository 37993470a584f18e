import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import type { MeterDto } from '../meters.schema';
import { AssetMetersPanel } from './asset-meters-panel';

const appData = (role: string) => () => ({ body: { loggedInUser: { id: 1, role, firstName: 'A', lastName: 'B' } } });

const meter = (over: Partial<MeterDto> = {}): MeterDto => ({
  id: 4,
  assetId: 7,
  name: 'Running hours',
  kind: 'counter',
  unit: 'h',
  description: null,
  version: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  latestReading: null,
  ...over,
});

describe('asset meters panel', () => {
  it('a worker sees the empty state without Add Meter, and an error with Retry when the list fails', async () => {
    let fail = true;
    stubFetch({
      'GET /api/user/get-app-data': appData('worker'),
      'GET /api/meters/list-meters': () => (fail ? { status: 500, body: { error: 'Internal server error' } } : { body: { meters: [] } }),
    });
    renderWithProviders(<AssetMetersPanel assetId={7} />);
    expect(await screen.findByTestId('meters-error')).toHaveTextContent('Failed to load meters');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No meters yet')).toBeInTheDocument();
    expect(screen.getByText('A manager adds the meters of this asset.')).toBeInTheDocument();
    expect(screen.queryByTestId('meters-add')).toBeNull();
  });

  it('enters a reading: the form shows the schema message, then sends the value and time and shows the new latest reading', async () => {
    let meters = [meter()];
    const calls = stubFetch({
      'GET /api/user/get-app-data': appData('worker'),
      'GET /api/meters/list-meters': () => ({ body: { meters } }),
      'POST /api/meters/add-meter-reading': (_url, init) => {
        const body = JSON.parse(String(init.body));
        meters = [
          meter({
            latestReading: {
              id: 1,
              meterId: 4,
              value: Number(body.value),
              total: Number(body.value),
              reset: false,
              readAt: body.readAt,
              source: 'manual',
              workOrderId: null,
              recordedById: 1,
              recordedBy: 'A B',
              createdAt: body.readAt,
            },
          }),
        ];
        return { status: 201, body: { meters } };
      },
    });
    renderWithProviders(<AssetMetersPanel assetId={7} />);
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
    const sent = JSON.parse(String(post.init.body));
    expect(sent).toMatchObject({ meterId: 4, value: '1500.25', reset: false });
    expect(Math.abs(Date.parse(sent.readAt) - Date.now())).toBeLessThan(120_000);
  });

  it('the read-at box is the date box of every screen (one format, typed day first) with a time box, not a native date-time input (issue 46)', async () => {
    const meters = [meter()];
    const calls = stubFetch({
      'GET /api/user/get-app-data': appData('worker'),
      'GET /api/meters/list-meters': () => ({ body: { meters } }),
      'POST /api/meters/add-meter-reading': () => ({ status: 201, body: { meters } }),
    });
    renderWithProviders(<AssetMetersPanel assetId={7} />);
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
    const sent = JSON.parse(String(calls.find((c) => c.method === 'POST')!.init.body));
    expect(sent.readAt).toBe(new Date(2026, 2, 2, 8, 15).toISOString());
  });

  it('a manager deletes a meter only after confirming, told that its readings go with it', async () => {
    let deleted = 0;
    stubFetch({
      'GET /api/user/get-app-data': appData('manager'),
      'GET /api/meters/list-meters': () => ({ body: { meters: deleted ? [] : [meter()] } }),
      'DELETE /api/meters/delete-meter/4': () => {
        deleted += 1;
        return { body: { meters: [] } };
      },
    });
    renderWithProviders(<AssetMetersPanel assetId={7} />);
    await userEvent.click(await screen.findByTestId('meter-menu'));
    await userEvent.click(await screen.findByTestId('meter-delete'));
    expect(await screen.findByText('Delete the meter "Running hours" and all its readings? This cannot be undone.')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('confirm-cancel'));
    await waitFor(() => expect(screen.queryByTestId('confirm-cancel')).toBeNull());
    expect(deleted).toBe(0);
    await userEvent.click(screen.getByTestId('meter-menu'));
    await userEvent.click(await screen.findByTestId('meter-delete'));
    await userEvent.click(await screen.findByTestId('confirm-yes'));
    expect(await screen.findByText('No meters yet')).toBeInTheDocument();
    expect(deleted).toBe(1);
  });

  it('lists each refused cell of a CSV import by line and column', async () => {
    stubFetch({
      'GET /api/user/get-app-data': appData('worker'),
      'GET /api/meters/list-meters': () => ({ body: { meters: [meter()] } }),
      'POST /api/meters/import-meter-readings': () => ({
        status: 400,
        body: { error: 'The file has 1 error; nothing was imported', issues: [{ path: 'rows.3.value', message: 'Value must be a number' }] },
      }),
    });
    renderWithProviders(<AssetMetersPanel assetId={7} />);
    await userEvent.click(await screen.findByTestId('meters-import'));
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await userEvent.upload(input, new File(['meter,value,read at\nRunning hours,1,2026-01-01\nRunning hours,x,2026-01-02'], 'r.csv', { type: 'text/csv' }));
    await userEvent.click(screen.getByTestId('import-run'));
    const result = await screen.findByTestId('import-result');
    expect(result).toHaveTextContent('Nothing was imported');
    expect(result).toHaveTextContent('Line 3, value: Value must be a number');
  });
});
