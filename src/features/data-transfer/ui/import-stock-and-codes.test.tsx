import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import ImportExportPage from './import-export-page';

// Issues 41 and 42: the wizard offers storerooms, stock levels and failure codes, with their hints, and maps their
// exports column by column; a dry run's problems show by row and column.

const fileInput = async () => {
  await screen.findByTestId('import-file');
  return document.querySelector<HTMLInputElement>('input[type=file]')!;
};
const appData = () => ({ body: { loggedInUser: { id: 1, role: 'manager', firstName: 'A', lastName: 'B' } } });
const answer = (problems: { row: number; column: string; message: string }[]) => () => ({
  body: {
    total: 2,
    valid: 2 - problems.length,
    imported: 0,
    new: 1,
    updated: 0,
    unchanged: 1 - problems.length,
    dryRun: true,
    created: [],
    missing: [],
    problems,
  },
});

const CASES = [
  {
    kind: 'storerooms',
    label: 'Storerooms',
    hint: 'storeroom, van or site-store',
    csv: 'Name,Kind,Default,Location\nMain store,storeroom,yes,Plant\nVan 1,van,no,Plant / Hall A\n',
    mapped: ['Location', 'Location'],
    sent: { name: 'Van 1', kind: 'van', isDefault: 'no', location: 'Plant / Hall A' },
    problem: null,
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
  },
  {
    kind: 'failure-codes',
    label: 'Failure codes',
    hint: 'LEAK > SEAL',
    csv: 'Kind,Code,Name,Parent,Asset Category\nproblem,LEAK,Leak,,Pumps\ncause,SEAL,Worn seal,LEAK,Pumps\n',
    mapped: ['Parent', 'Parent'],
    sent: { kind: 'cause', code: 'SEAL', name: 'Worn seal', parent: 'LEAK', assetCategory: 'Pumps' },
    problem: null,
  },
] as const;

describe('import wizard: storerooms, stock levels, failure codes', () => {
  it.each(CASES)('offers $kind with its hint, maps its export and shows a dry run by row and column', { timeout: 60_000 }, async (c) => {
    const calls = stubFetch({
      'GET /api/user/get-app-data': appData,
      [`GET /api/data-transfer/mapping/${c.kind}`]: () => ({ body: { mapping: {} } }),
      [`POST /api/data-transfer/import/${c.kind}`]: answer(c.problem ? [c.problem] : []),
    });
    renderWithProviders(<ImportExportPage />, { route: `/settings/import-export?kind=${c.kind}` });
    expect(await screen.findByTestId('import-kind')).toHaveValue(c.label);
    expect(screen.getByTestId('import-hint')).toHaveTextContent(c.hint);
    await userEvent.upload(await fileInput(), new File([c.csv], `${c.kind}.csv`, { type: 'text/csv' }));
    expect(await screen.findByTestId('import-found', {}, { timeout: 15_000 })).toHaveTextContent('2 rows');
    expect(screen.getByTestId(`map-${c.mapped[0]}`)).toHaveValue(c.mapped[1]);
    await userEvent.click(screen.getByTestId('import-dry-run'));
    const post = calls.find((x) => x.method === 'POST')!;
    const body = JSON.parse(String(post.init.body));
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
