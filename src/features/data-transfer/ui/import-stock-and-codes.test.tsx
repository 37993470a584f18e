import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../web/test/render';
import { realServer } from '../../../web/test/real-api';
import type { TestOrg } from '../../../server/test/harness';
import { addLocation, addStockablePart, masterRows } from '../../assets/test-fixtures';
import ImportExportPage from './import-export-page';

const server = realServer();

// Issues 41 and 42: the wizard offers storerooms, stock levels and failure codes, with their hints, and maps their
// exports column by column; a dry run's problems show by row and column.

const fileInput = async () => {
  await screen.findByTestId('import-file');
  return document.querySelector<HTMLInputElement>('input[type=file]')!;
};
/** A created row through the API (201), its body. */
const made = async (org: TestOrg, path: string, body: Record<string, unknown>) => {
  const res = await org.admin.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

const CASES = [
  {
    kind: 'storerooms',
    label: 'Storerooms',
    hint: 'storeroom, van or site-store',
    csv: 'Name,Kind,Default,Location\nMain store,storeroom,yes,Plant\nVan 1,van,no,Plant / Hall A\n',
    mapped: ['Location', 'Location'],
    sent: { name: 'Van 1', kind: 'van', isDefault: 'no', location: 'Plant / Hall A' },
    problem: null,
    // the places, and the main store as the file has it: Van 1 is new
    arrange: async (org: TestOrg) => {
      const plant = await addLocation(org, 'Plant');
      await addLocation(org, 'Hall A', plant);
      await made(org, '/api/stock/add-location', { name: 'Main store', kind: 'storeroom', locationId: plant });
    },
  },
  {
    kind: 'stock-levels',
    label: 'Stock levels (counts)',
    hint: 'The quantity is a count',
    csv: 'Part,Part Name,Storeroom,Quantity,Reorder Point,Reorder Quantity,Bin\nBRG-6204,Bearing 6204,Main store,35,10,20,A-03\nNOPE,Nope,Main store,1,,,\n',
    mapped: ['Storeroom', 'Storeroom *'],
    // The export's Part Name comes back too; the server skips export-only columns.
    sent: { part: 'BRG-6204', partName: 'Bearing 6204', storeroom: 'Main store', quantity: '35', reorderPoint: '10', reorderQuantity: '20', bin: 'A-03' },
    problem: { row: 3, column: 'part', message: 'Part not found: give its SKU or its name' },
    // the main store and the bearing; NOPE is no part of the organisation
    arrange: async (org: TestOrg) => {
      await made(org, '/api/stock/add-location', { name: 'Main store', kind: 'storeroom' });
      await addStockablePart(org, await masterRows(server.test, org.orgId), { name: 'Bearing 6204', sku: 'BRG-6204' });
    },
  },
  {
    kind: 'failure-codes',
    label: 'Failure codes',
    hint: 'LEAK > SEAL',
    csv: 'Kind,Code,Name,Parent,Asset Category\nproblem,LEAK,Leak,,Pumps\ncause,SEAL,Worn seal,LEAK,Pumps\n',
    mapped: ['Parent', 'Parent'],
    sent: { kind: 'cause', code: 'SEAL', name: 'Worn seal', parent: 'LEAK', assetCategory: 'Pumps' },
    problem: null,
    // the pumps' category and the problem LEAK as the file has it: SEAL is new
    arrange: async (org: TestOrg) => {
      const pumps = await made(org, '/api/asset-categories/add-asset-category', { name: 'Pumps', code: 'PMP' });
      await made(org, '/api/failure-codes/add-failure-code', { kind: 'problem', code: 'LEAK', name: 'Leak', assetCategoryId: pumps.assetCategory.id });
    },
  },
] as const;

describe('import wizard: storerooms, stock levels, failure codes', () => {
  it.each(CASES)('offers $kind with its hint, maps its export and shows a dry run by row and column', async (c) => {
    const { org, calls } = await server.signIn('manager');
    await c.arrange(org);
    renderWithProviders(<ImportExportPage />, { route: `/settings/import-export?kind=${c.kind}` });
    expect(await screen.findByTestId('import-kind')).toHaveValue(c.label);
    expect(screen.getByTestId('import-hint')).toHaveTextContent(c.hint);
    await userEvent.upload(await fileInput(), new File([c.csv], `${c.kind}.csv`, { type: 'text/csv' }));
    expect(await screen.findByTestId('import-found')).toHaveTextContent('2 rows');
    expect(screen.getByTestId(`map-${c.mapped[0]}`)).toHaveValue(c.mapped[1]);
    await userEvent.click(screen.getByTestId('import-dry-run'));
    await waitFor(() => expect(calls.some((x) => x.method === 'POST')).toBe(true));
    const post = calls.find((x) => x.method === 'POST')!;
    const body = post.body as { dryRun: boolean; rows: unknown[] };
    expect(body.dryRun).toBe(true);
    expect(body.rows).toContainEqual(c.sent);
    if (c.problem) {
      const cells = within(await screen.findByTestId('import-problems'))
        .getAllByRole('cell')
        .map((x) => x.textContent);
      expect(cells).toEqual(['3', 'Part', 'NOPE', c.problem.message]);
    } else expect(await screen.findByTestId('import-changes')).toHaveTextContent('1 new, 0 updated, 1 unchanged.');
  });
});
