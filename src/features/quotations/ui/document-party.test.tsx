import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import QuotationsPage from './quotations-page';

const manager = {
  loggedInUser: { id: 1, role: 'manager', firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test' },
  workers: [],
  company: { currency: 'USD' },
};
const emptyList = { quotations: [], pagination: { totalRecords: 0, currentPage: 1, totalPages: 1 } };

describe("a quotation's customer picker", () => {
  it('asks for customers only (vendors are never offered)', async () => {
    const calls = stubFetch({
      'GET /api/user/get-app-data': () => ({ body: manager }),
      'GET /api/quotations/get-quotations': () => ({ body: emptyList }),
      'GET /api/quotations/get-tax-options': () => ({ body: [] }),
      'GET /api/customer-vendors/get-customer-vendor-options': (url) => ({
        body:
          url.searchParams.get('type') === 'customer'
            ? [{ value: 3, label: 'Acme Foods', type: 'customer' }]
            : [
                { value: 3, label: 'Acme Foods', type: 'customer' },
                { value: 4, label: 'Bearing World', type: 'vendor' },
              ],
      }),
    });
    renderWithProviders(<QuotationsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Generate Quotation' }));
    await userEvent.click(await screen.findByTestId('q-customer'));
    await screen.findByRole('option', { name: 'Acme Foods' });
    expect(screen.queryByRole('option', { name: 'Bearing World' })).toBeNull();
    await waitFor(() =>
      expect(calls.filter((c) => c.url.pathname.endsWith('get-customer-vendor-options')).every((c) => c.url.searchParams.get('type') === 'customer')).toBe(
        true,
      ),
    );
  });
});
