import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { PartStockLevels } from './part-stock-levels';

const level = (locationId: number, name: string, quantity: number, bin: string | null) => ({
  partId: 4,
  locationId,
  part: { id: 4, name: 'Seal kit' },
  location: { id: locationId, name },
  quantity,
  reorderPoint: 2,
  reorderQuantity: 10,
  bin,
});

describe('part stock levels', () => {
  it("shows the part's quantity, reorder point, reorder quantity and bin per storeroom", async () => {
    const calls = stubFetch({
      'GET /api/stock/get-stock-levels': () => ({ body: { stockLevels: [level(1, 'Main store', 7, 'A-3'), level(2, 'Van 1', 1, null)], total: 2 } }),
    });
    renderWithProviders(<PartStockLevels partId={4} />);
    const main = await screen.findByTestId('stock-level-1');
    expect(
      within(main)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Main store', '7', '0', '7', '2', '10', 'A-3']);
    expect(
      within(screen.getByTestId('stock-level-2'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Van 1', '1', '0', '1', '2', '10', '—']);
    expect(calls.find((c) => c.url.pathname === '/api/stock/get-stock-levels')!.url.searchParams.get('partId')).toBe('4');
  });
});
