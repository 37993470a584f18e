import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../test/render';
import AssetsPage from '../../features/assets/ui/assets-page';

/**
 * Labels from the Assets list (decision 039): a manager chooses rows, a label size, and the PDF is asked for
 * with those ids and downloaded. The browser's object URLs are faked (jsdom has none); the PDF's content is the
 * API's (request-portal.routes.test.ts) and the browser journey's (e2e/request-portal.e2e.ts).
 */

const asset = (id: number, name: string) => ({
  id,
  assetId: `AS-000${id}`,
  name,
  status: 'Operational',
  date: '2026-01-01',
  createdAt: '2026-11-26T06:00:00.000Z',
});
const list = { assets: [asset(1, 'Boiler'), asset(2, 'Chiller')], pagination: { totalRecords: 2, currentPage: 1, totalPages: 1 } };
const user = (role: string) => () => ({ body: { loggedInUser: { id: 1, role, firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test' }, workers: [] } });

const realCreate = URL.createObjectURL;
afterEach(() => {
  URL.createObjectURL = realCreate;
  vi.restoreAllMocks();
});

describe('labels from the Assets list', () => {
  it('a manager chooses assets (a box click does not open the drawer), picks a size and downloads the PDF of those assets', async () => {
    const created = vi.fn(() => 'blob:labels');
    URL.createObjectURL = created;
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const calls = stubFetch({
      'GET /api/user/get-app-data': user('manager'),
      'GET /api/assets/get-assets': () => ({ body: list }),
      'POST /api/portal/asset-labels': () => ({ body: {} }),
    });
    renderWithProviders(<AssetsPage />);
    expect(await screen.findByText('Chiller')).toBeInTheDocument();
    expect(screen.getByTestId('labels-print')).toBeDisabled();

    await userEvent.click(screen.getByTestId('labels-select-2'));
    expect(screen.queryByTestId('asset-drawer')).toBeNull();
    expect(screen.getByTestId('labels-print')).toHaveTextContent('Print labels (1)');
    await userEvent.click(screen.getByTestId('labels-select-page'));
    expect(screen.getByTestId('labels-print')).toHaveTextContent('Print labels (2)');
    await userEvent.click(screen.getByTestId('labels-select-1'));
    await userEvent.click(screen.getByTestId('labels-select-1'));

    await userEvent.click(screen.getByTestId('labels-print'));
    await userEvent.click(await screen.findByTestId('portal-label-layout'));
    await userEvent.click(await screen.findByRole('option', { name: 'One large label (100 × 150 mm)' }));
    await userEvent.click(screen.getByTestId('portal-labels-download'));
    await waitFor(() => expect(clicked).toEqual(['labels.pdf']));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(JSON.parse(String(post.init.body))).toEqual({ assetIds: [2, 1], workStationIds: [], layout: 'single-large' });
    expect(created).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByTestId('portal-labels')).toBeNull());
  });

  it('a worker has no label choice (the labels are managers\u2019)', async () => {
    stubFetch({ 'GET /api/user/get-app-data': user('worker'), 'GET /api/assets/get-assets': () => ({ body: list }) });
    renderWithProviders(<AssetsPage />);
    expect(await screen.findByText('Chiller')).toBeInTheDocument();
    expect(screen.queryByTestId('labels-print')).toBeNull();
    expect(screen.queryByTestId('labels-select-1')).toBeNull();
  });
});
