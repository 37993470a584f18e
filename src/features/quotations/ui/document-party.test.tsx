import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import QuotationsPage from './quotations-page';

const server = realServer();

// A loaded machine (several runs on two cores) took over the project's 60 s for this one page and picker.
describe("a quotation's customer picker", { timeout: 180_000 }, () => {
  it('asks for customers only (vendors are never offered)', async () => {
    const { org, calls } = await server.signIn('manager');
    for (const [name, type] of [
      ['Acme Foods', 'customer'],
      ['Bearing World', 'vendor'],
    ]) {
      const added = await org.admin.post('/api/customer-vendors/add-customer-vendor', { name, email: `${type}@example.com`, type, category: 'company' });
      expect(added.status).toBe(201);
    }
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
