import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, createQueryClient } from '../app/providers';
import { realServer } from '../test/real-api';
import ProductCategoriesPage from '../../features/master-data/ui/product-categories-page';
import AssetsPage from '../../features/assets/ui/assets-page';

const server = realServer();

/** The app's own query client (a failed fetch is retried once, as in the product), not the tests' no-retry one. */
function renderApp(ui: React.ReactElement) {
  return render(
    <MemoryRouter>
      <AppProviders queryClient={createQueryClient()} env="test">
        {ui}
      </AppProviders>
    </MemoryRouter>,
  );
}

// A loaded machine (several runs on two cores) took over the project's 60 s for the app and the page.
describe('a list that fails to load', { timeout: 180_000 }, () => {
  it('a client-paged list: one failure toast (the fetch is retried), the failure said in place with Retry, never "No results / 0 rows"', async () => {
    const { org, fail } = await server.signIn('manager');
    expect((await org.admin.post('/api/product-categories/add-product-category', { name: 'Spares' })).status).toBe(201);
    // The one state the real server cannot give on demand: the list's call fails (500) until Retry.
    const recover = fail('GET /api/product-categories/get-product-categories', { status: 500, body: { error: 'Internal Server Error' } });
    renderApp(<ProductCategoriesPage />);
    expect(await screen.findByTestId('list-failed')).toHaveTextContent('This list could not be loaded.');
    await waitFor(() => expect(screen.getAllByText('Failed to fetch categories')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.getAllByText('Failed to fetch categories')).toHaveLength(1);
    expect(screen.queryByTestId('no-results')).toBeNull();
    expect(screen.queryByTestId('total-records')).toBeNull();

    recover();
    await userEvent.click(screen.getByTestId('list-retry'));
    expect(await screen.findByText('Spares')).toBeInTheDocument();
    expect(screen.queryByTestId('list-failed')).toBeNull();
  });

  it('a server-paged list: said in place with Retry; rows kept from an earlier load are marked as not up to date', async () => {
    const { org, fail } = await server.signIn('manager');
    const category = await org.admin.post('/api/asset-categories/add-asset-category', { name: 'Heating', code: 'HTG' });
    expect(category.status).toBe(201);
    const boiler = await org.admin.post('/api/assets/add-asset', { name: 'Boiler', date: '2026-01-01', assetCategoryId: category.body.assetCategory.id });
    expect(boiler.status).toBe(201);
    // The one state the real server cannot give on demand: the list's call fails (503) while `recover` is not called.
    const assetsFail = () => fail('GET /api/assets/get-assets', { status: 503, body: { error: 'Service Unavailable' } });
    let recover = assetsFail();
    renderApp(<AssetsPage />);
    expect(await screen.findByTestId('list-failed')).toBeInTheDocument();
    expect(screen.queryByTestId('no-results')).toBeNull();
    expect(screen.queryByText(/0 records/)).toBeNull();
    recover();
    await userEvent.click(screen.getByTestId('list-retry'));
    expect(await screen.findByText('Boiler')).toBeInTheDocument();

    recover = assetsFail();
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByTestId('list-stale')).toHaveTextContent('these rows may be out of date');
    expect(screen.getByText('Boiler')).toBeInTheDocument();
  });
});
