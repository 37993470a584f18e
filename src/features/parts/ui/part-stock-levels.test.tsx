import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../../web/test/render';
import { realServer, type RealSession } from '../../../web/test/real-api';
import { catalogue } from '../../maintenance-requests/test-fixtures';
import { PartStockLevels } from './part-stock-levels';

const server = realServer();

/** A storeroom holding `quantity` of the part (a count) with its reorder settings, through the API. */
async function stocked({ org }: RealSession, partId: number, name: string, quantity: number, bin: string | null) {
  const location = await org.admin.post('/api/stock/add-location', { name, kind: name.startsWith('Van') ? 'van' : 'storeroom' });
  expect(location.status).toBe(201);
  const locationId = location.body.location.id as number;
  expect((await org.admin.post('/api/stock/count-stock', { partId, locationId, countedQuantity: quantity })).status).toBe(200);
  const settings = { partId, locationId, reorderPoint: 2, reorderQuantity: 10, ...(bin ? { bin } : {}) };
  expect((await org.admin.put('/api/stock/update-stock-level', settings)).status).toBe(200);
  return locationId;
}

describe('part stock levels', () => {
  it("shows the part's quantity, reorder point, reorder quantity and bin per storeroom", async () => {
    const session = await server.signIn('manager');
    const { part } = await catalogue(server.test, session.org.orgId);
    const main = await stocked(session, part.id, 'Main store', 7, 'A-3');
    const van = await stocked(session, part.id, 'Van 1', 1, null);
    renderWithProviders(<PartStockLevels partId={part.id} />);
    expect(
      within(await screen.findByTestId(`stock-level-${main}`))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Main store', '7', '0', '7', '2', '10', 'A-3']);
    expect(
      within(screen.getByTestId(`stock-level-${van}`))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Van 1', '1', '0', '1', '2', '10', '—']);
    expect(session.calls.find((c) => c.url.pathname === '/api/stock/get-stock-levels')!.url.searchParams.get('partId')).toBe(String(part.id));
  });
});
