import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { parseFile } from './parse-file';
import ImportExportPage from './import-export-page';

const bytes = (s: string) => new TextEncoder().encode(s).buffer as ArrayBuffer;

describe('reading a file', () => {
  it('takes UTF-8 with a BOM and finds a semicolon delimiter', async () => {
    const file = await parseFile(bytes('\uFEFFName;Category;Date\r\nمضخة;Pumps;2024-05-01\r\n\r\n'), 'a.csv', 'utf-8');
    expect(file).toEqual({ headers: ['Name', 'Category', 'Date'], rows: [['مضخة', 'Pumps', '2024-05-01']], delimiter: ';' });
  });

  it('says a Windows-1256 file is not UTF-8, and reads it as Windows-1256 when chosen', async () => {
    // "Name,اسم" then "Pump,مضخة" in Windows-1256
    const cp1256 = new Uint8Array([...new TextEncoder().encode('Name,Other\r\n'), 0xe3, 0xd6, 0xce, 0xc9, 0x2c, 0x78, 0x0d, 0x0a]).buffer;
    expect((await parseFile(cp1256, 'a.csv', 'utf-8')).error).toBe('encoding');
    expect((await parseFile(cp1256, 'a.csv', 'windows-1256')).rows).toEqual([['مضخة', 'x']]);
  });

  it('flags a file with one column (wrong delimiter) and a file without rows', async () => {
    expect((await parseFile(bytes('Name:Category\nPump:Pumps\n'), 'a.csv', 'utf-8')).error).toBe('oneColumn');
    expect((await parseFile(bytes('Name,Category\n'), 'a.csv', 'utf-8')).error).toBe('empty');
  });
});

/** Mantine's FileInput keeps its <input type=file> beside the button. */
const fileInput = async () => {
  await screen.findByTestId('import-file');
  return document.querySelector<HTMLInputElement>('input[type=file]')!;
};

const appData = () => ({ body: { loggedInUser: { id: 1, role: 'admin', firstName: 'A', lastName: 'B' } } });

describe('import wizard', () => {
  it('maps the columns, imports, shows each problem by row and column, and offers the rejected rows', async () => {
    const calls = stubFetch({
      'GET /api/user/get-app-data': appData,
      'GET /api/data-transfer/mapping/assets': () => ({ body: { mapping: { Kategorie: 'category' } } }),
      'PUT /api/data-transfer/mapping/assets': () => ({ body: { message: 'Mapping saved' } }),
      'POST /api/data-transfer/import/assets': () => ({
        body: { total: 2, valid: 1, imported: 1, dryRun: false, created: [], missing: [], problems: [{ row: 3, column: 'date', message: 'Date must be a valid date' }] },
      }),
    });
    renderWithProviders(<ImportExportPage />);
    const file = new File(['Asset Name,Kategorie,Date,Notes\nPump,Pumps,2024-05-01,x\nMotor,Motors,someday,y\n'], 'assets.csv', { type: 'text/csv' });
    await userEvent.upload(await fileInput(), file);
    expect(await screen.findByTestId('import-found')).toHaveTextContent('2 rows, 4 columns');
    // guessed from the header (Asset Name), remembered for this organisation (Kategorie), not mapped (Notes)
    expect(screen.getByTestId('map-Asset Name')).toHaveValue('Name *');
    expect(screen.getByTestId('map-Kategorie')).toHaveValue('Category *');
    expect(screen.getByTestId('map-Notes')).toHaveValue('Do not import');
    await userEvent.click(screen.getByTestId('mode-valid'));
    await userEvent.click(screen.getByTestId('import-run'));
    const problems = await screen.findByTestId('import-problems');
    const cells = within(problems).getAllByRole('cell').map((c) => c.textContent);
    expect(cells).toEqual(['3', 'Date', 'someday', 'Date must be a valid date']);
    expect(screen.getByTestId('import-summary')).toHaveTextContent('2 rows: 1 valid, 1 with problems. 1 rows imported.');
    expect(screen.getByTestId('download-rejected')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(JSON.parse(String(post.init.body))).toEqual({
      rows: [
        { name: 'Pump', category: 'Pumps', date: '2024-05-01' },
        { name: 'Motor', category: 'Motors', date: 'someday' },
      ],
      mode: 'valid',
      dryRun: false,
      createMissing: false,
      firstRow: 2,
    });
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(JSON.parse(String(put.init.body))).toEqual({ mapping: { 'Asset Name': 'name', Kategorie: 'category', Date: 'date' } });
  });

  it('says which required columns are not mapped, and keeps Import disabled', async () => {
    stubFetch({ 'GET /api/user/get-app-data': appData, 'GET /api/data-transfer/mapping/parts': () => ({ body: { mapping: {} } }) });
    renderWithProviders(<ImportExportPage />, { route: '/settings/import-export?kind=parts' });
    await userEvent.upload(await fileInput(), new File(['Name,Price\nBearing,3\n'], 'p.csv', { type: 'text/csv' }));
    expect(await screen.findByTestId('import-missing-columns')).toHaveTextContent('Required columns not mapped: Type, Category, Unit of Measure');
    await waitFor(() => expect(screen.getByTestId('import-run')).toBeDisabled());
  });
});
