import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../test/render';
import { realServer } from '../test/real-api';
import AssetsPage from '../../features/assets/ui/assets-page';

/**
 * Labels from the Assets list (decision 039): a manager chooses rows, a label size, and the PDF is asked for
 * with those ids and downloaded. The browser's object URLs are faked (jsdom has none); the PDF's content is the
 * API's (request-portal.routes.test.ts) and the browser journey's (e2e/request-portal.e2e.ts).
 */

const server = realServer();

/** A user of `role` signed in, with the assets Boiler and Chiller (through the API): their ids. */
async function withAssets(role: 'manager' | 'worker') {
  const session = await server.signIn(role);
  const { admin } = session.org;
  const category = await admin.post('/api/asset-categories/add-asset-category', { name: 'Heating', code: 'HTG' });
  expect(category.status).toBe(201);
  const add = async (name: string) => {
    const res = await admin.post('/api/assets/add-asset', { name, date: '2026-01-01', assetCategoryId: category.body.assetCategory.id });
    expect(res.status).toBe(201);
    return res.body.asset.id as number;
  };
  return { ...session, boiler: await add('Boiler'), chiller: await add('Chiller') };
}

const realCreate = URL.createObjectURL;
afterEach(() => {
  URL.createObjectURL = realCreate;
  vi.restoreAllMocks();
});

// A loaded machine (several runs on two cores) took over the project's 60 s for the app and the page.
describe('labels from the Assets list', { timeout: 180_000 }, () => {
  it('a manager chooses assets (a box click does not open the drawer), picks a size and downloads the PDF of those assets', async () => {
    const created = vi.fn(() => 'blob:labels');
    URL.createObjectURL = created;
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const { calls, boiler, chiller } = await withAssets('manager');
    renderWithProviders(<AssetsPage />);
    expect(await screen.findByText('Chiller')).toBeInTheDocument();
    // the label choice is a manager's: it shows once the app data (who is signed in) has come, maybe after the rows
    expect(await screen.findByTestId('labels-print')).toBeDisabled();

    await userEvent.click(screen.getByTestId(`labels-select-${chiller}`));
    expect(screen.queryByTestId('asset-drawer')).toBeNull();
    expect(screen.getByTestId('labels-print')).toHaveTextContent('Print labels (1)');
    await userEvent.click(screen.getByTestId('labels-select-page'));
    expect(screen.getByTestId('labels-print')).toHaveTextContent('Print labels (2)');
    await userEvent.click(screen.getByTestId(`labels-select-${boiler}`));
    await userEvent.click(screen.getByTestId(`labels-select-${boiler}`));

    await userEvent.click(screen.getByTestId('labels-print'));
    await userEvent.click(await screen.findByTestId('portal-label-layout'));
    await userEvent.click(await screen.findByRole('option', { name: 'One large label (100 × 150 mm)' }));
    await userEvent.click(screen.getByTestId('portal-labels-download'));
    await waitFor(() => expect(clicked).toEqual(['labels.pdf']));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ assetIds: [chiller, boiler], workStationIds: [], layout: 'single-large' });
    expect(post.status).toBe(200);
    expect(created).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByTestId('portal-labels')).toBeNull());
  });

  it('a worker has no label choice (the labels are managers\u2019)', async () => {
    const { boiler, calls } = await withAssets('worker');
    renderWithProviders(<AssetsPage />);
    expect(await screen.findByText('Chiller')).toBeInTheDocument();
    // the page knows the reader is a worker once the app data has come
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/user/get-app-data' && c.status === 200)).toBe(true));
    expect(screen.queryByTestId('labels-print')).toBeNull();
    expect(screen.queryByTestId(`labels-select-${boiler}`)).toBeNull();
  });
});
