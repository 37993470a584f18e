import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AppProviders, createQueryClient } from '../app/providers';
import { stubFetch } from '../test/render';
import ProductCategoriesPage from '../../features/master-data/ui/product-categories-page';
import AssetsPage from '../../features/assets/ui/assets-page';

const manager = { loggedInUser: { id: 1, role: 'manager', firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test' }, workers: [] };

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

describe('a list that fails to load', () => {
  it('a client-paged list: one failure toast (the fetch is retried), the failure said in place with Retry, never "No results / 0 rows"', async () => {
    let fail = true;
    stubFetch({
      'GET /api/user/get-app-data': () => ({ body: manager }),
      'GET /api/product-categories/get-product-categories': () =>
        fail
          ? { status: 500, body: { error: 'Internal Server Error' } }
          : {
              body: {
                productCategories: [{ id: 1, name: 'Spares', createdAt: '2026-11-26T06:00:00.000Z' }],
                pagination: { totalRecords: 1, currentPage: 1, totalPages: 1 },
              },
            },
    });
    renderApp(<ProductCategoriesPage />);
    expect(await screen.findByTestId('list-failed', {}, { timeout: 5000 })).toHaveTextContent('This list could not be loaded.');
    await waitFor(() => expect(screen.getAllByText('Failed to fetch categories')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.getAllByText('Failed to fetch categories')).toHaveLength(1);
    expect(screen.queryByTestId('no-results')).toBeNull();
    expect(screen.queryByTestId('total-records')).toBeNull();

    fail = false;
    await userEvent.click(screen.getByTestId('list-retry'));
    expect(await screen.findByText('Spares')).toBeInTheDocument();
    expect(screen.queryByTestId('list-failed')).toBeNull();
  });

  it('a server-paged list: said in place with Retry; rows kept from an earlier load are marked as not up to date', async () => {
    let fail = true;
    stubFetch({
      'GET /api/user/get-app-data': () => ({ body: manager }),
      'GET /api/assets/get-assets': () =>
        fail
          ? { status: 503, body: { error: 'Service Unavailable' } }
          : {
              body: {
                assets: [{ id: 1, assetId: 'AS-0001', name: 'Boiler', status: 'Operational', date: '2026-01-01', createdAt: '2026-11-26T06:00:00.000Z' }],
                pagination: { totalRecords: 1, currentPage: 1, totalPages: 1 },
              },
            },
    });
    renderApp(<AssetsPage />);
    expect(await screen.findByTestId('list-failed', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByTestId('no-results')).toBeNull();
    expect(screen.queryByText(/0 records/)).toBeNull();
    fail = false;
    await userEvent.click(screen.getByTestId('list-retry'));
    expect(await screen.findByText('Boiler')).toBeInTheDocument();

    fail = true;
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByTestId('list-stale', {}, { timeout: 5000 })).toHaveTextContent('these rows may be out of date');
    expect(screen.getByText('Boiler')).toBeInTheDocument();
  });
});
