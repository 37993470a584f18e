import { describe, expect, it } from 'vitest';
import { ORGANISATION_IMPORT_KINDS } from '../data-transfer.schema';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { strToU8, zipSync } from 'fflate';
import { renderWithProviders, stubFetch } from '../../../web/test/render';
import { parseFile } from './parse-file';
import ImportExportPage from './import-export-page';

const bytes = (s: string) => new TextEncoder().encode(s).buffer as ArrayBuffer;

type Cell = string | number | { date: number } | null;

/**
 * A real .xlsx (an OOXML zip, as Excel writes it: shared strings, numbers, a date cell styled with format 14,
 * an empty cell), made here with fflate so the test needs no fixture file.
 */
function xlsx(rows: Cell[][]): ArrayBuffer {
  const strings: string[] = [];
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const ref = (r: number, c: number) => `${String.fromCharCode(65 + c)}${r + 1}`;
  const sheetRows = rows
    .map((row, r) => {
      const cells = row
        .map((v, c) => {
          if (v === null) return '';
          if (typeof v === 'number') return `<c r="${ref(r, c)}"><v>${v}</v></c>`;
          if (typeof v === 'object') return `<c r="${ref(r, c)}" s="1"><v>${v.date}</v></c>`;
          strings.push(v);
          return `<c r="${ref(r, c)}" t="s"><v>${strings.length - 1}</v></c>`;
        })
        .join('');
      return `<row r="${r + 1}">${cells}</row>`;
    })
    .join('');
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const pkg = 'http://schemas.openxmlformats.org/package/2006/relationships';
  const ct = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  const files = {
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${ct}.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${ct}.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="${ct}.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="${ct}.sharedStrings+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${pkg}"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${pkg}"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rel}/styles" Target="styles.xml"/><Relationship Id="rId3" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    'xl/styles.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet xmlns="${main}"><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    'xl/sharedStrings.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="${main}" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t>${esc(s)}</t></si>`).join('')}</sst>`,
    'xl/worksheets/sheet1.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${main}"><sheetData>${sheetRows}</sheetData></worksheet>`,
  };
  const zipped = zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])));
  return zipped.buffer.slice(zipped.byteOffset, zipped.byteOffset + zipped.byteLength) as ArrayBuffer;
}

/** 2024-05-01 as Excel stores a day: days since 1899-12-30. */
const MAY_FIRST_2024 = 45413;

/** The wizard's API: the app data, and for each import kind an empty mapping and a dry run answering `counts`. */
const stubDryRuns = (kinds: Record<string, Record<string, number>>) =>
  stubFetch({
    'GET /api/user/get-app-data': appData,
    ...Object.fromEntries(
      Object.entries(kinds).flatMap(([kind, counts]) => [
        [`GET /api/data-transfer/mapping/${kind}`, () => ({ body: { mapping: {} } })],
        [`POST /api/data-transfer/import/${kind}`, () => ({ body: { imported: 0, dryRun: true, created: [], missing: [], problems: [], ...counts } })],
      ]),
    ),
  });

/**
 * The page opened at an import `kind` shows its label and hint; `csv` uploaded as `fileName` is found as `found`,
 * its column `mapped[0]` mapped to `mapped[1]`; the dry run says `changes`. The rows sent.
 */
async function dryRunOf(
  calls: ReturnType<typeof stubFetch>,
  kind: string,
  expected: { label: string; hint: string; csv: string; fileName: string; found: string; mapped: [string, string]; changes: string },
) {
  const view = renderWithProviders(<ImportExportPage />, { route: `/settings/import-export?kind=${kind}` });
  expect(await screen.findByTestId('import-kind')).toHaveValue(expected.label);
  expect(screen.getByTestId('import-hint')).toHaveTextContent(expected.hint);
  await userEvent.upload(await fileInput(), new File([expected.csv], expected.fileName, { type: 'text/csv' }));
  expect(await screen.findByTestId('import-found')).toHaveTextContent(expected.found);
  expect(screen.getByTestId(`map-${expected.mapped[0]}`)).toHaveValue(expected.mapped[1]);
  await userEvent.click(screen.getByTestId('import-dry-run'));
  expect(await screen.findByTestId('import-changes')).toHaveTextContent(expected.changes);
  const post = calls.find((c) => c.method === 'POST' && c.url.pathname.endsWith(`/${kind}`))!;
  return { view, rows: JSON.parse(String(post.init.body)).rows };
}

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

  it('reads an .xlsx: text (Arabic too), numbers as typed, a date cell as YYYY-MM-DD, an empty cell as ""', async () => {
    const file = await parseFile(
      xlsx([
        ['Name', 'Category', 'Date', 'Serial'],
        ['مضخة التغذية', 'Pumps', { date: MAY_FIRST_2024 }, 3341],
        ['Motor', null, { date: MAY_FIRST_2024 + 1 }, 'GRF-1'],
      ]),
      'assets.xlsx',
      'utf-8',
    );
    expect(file).toEqual({
      headers: ['Name', 'Category', 'Date', 'Serial'],
      rows: [
        ['مضخة التغذية', 'Pumps', '2024-05-01', '3341'],
        ['Motor', '', '2024-05-02', 'GRF-1'],
      ],
      delimiter: undefined,
    });
  });

  it('says an .xlsx that is not a spreadsheet cannot be read, and one with a header only has no rows', async () => {
    expect((await parseFile(bytes('Name,Category\nPump,Pumps\n'), 'renamed.xlsx', 'utf-8')).error).toBe('unreadable');
    expect((await parseFile(xlsx([['Name', 'Category']]), 'empty.xlsx', 'utf-8')).error).toBe('empty');
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
        body: {
          total: 2,
          valid: 1,
          imported: 1,
          dryRun: false,
          created: [],
          missing: [],
          problems: [{ row: 3, column: 'date', message: 'Date must be a valid date' }],
        },
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
    const cells = within(problems)
      .getAllByRole('cell')
      .map((c) => c.textContent);
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

  it('imports an .xlsx of work stations: the new kinds are offered, the rows sent as the sheet has them', async () => {
    const calls = stubDryRuns({ 'work-stations': { total: 1, valid: 1 } });
    renderWithProviders(<ImportExportPage />, { route: '/settings/import-export?kind=work-stations' });
    const sheet = xlsx([
      ['Code', 'Name', 'City', 'Team'],
      ['WS-01', 'Machining bay', 'الرياض', 'Mechanics'],
    ]);
    await userEvent.upload(
      await fileInput(),
      new File([sheet], 'stations.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
    );
    expect(await screen.findByTestId('import-found')).toHaveTextContent('1 rows, 4 columns');
    expect(screen.getByTestId('import-kind')).toHaveValue('Work stations');
    expect(screen.queryByTestId('create-missing')).toBeNull();
    await userEvent.click(screen.getByTestId('import-dry-run'));
    expect(await screen.findByTestId('import-summary')).toHaveTextContent('1 rows: 1 valid, 0 with problems. Dry run: nothing was saved.');
    const post = calls.find((c) => c.method === 'POST')!;
    expect(JSON.parse(String(post.init.body)).rows).toEqual([{ code: 'WS-01', name: 'Machining bay', city: 'الرياض', team: 'Mechanics' }]);
  });

  it('imports procedures one row per step and PM plans one row per plan, as their exports are shaped', async () => {
    const calls = stubDryRuns({
      procedures: { total: 2, valid: 2, new: 1, updated: 0, unchanged: 0 },
      'pm-plans': { total: 1, valid: 1, new: 0, updated: 1, unchanged: 0 },
    });
    const steps = await dryRunOf(calls, 'procedures', {
      label: 'Procedures (one row per step)',
      hint: 'Each row is a step',
      csv: 'Procedure,Step Type,Label,Required,Unit,Min,Max\nPump check,number,Discharge pressure,yes,bar,2,6\nPump check,checkbox,Guard fitted,yes,,,\n',
      fileName: 'procedure-steps.csv',
      found: '2 rows, 7 columns',
      mapped: ['Step Type', 'Step Type *'],
      changes: '1 new, 0 updated, 0 unchanged.',
    });
    expect(steps.rows).toEqual([
      expect.objectContaining({ procedure: 'Pump check', kind: 'number', label: 'Discharge pressure', unit: 'bar', min: '2', max: '6' }),
      expect.objectContaining({ procedure: 'Pump check', kind: 'checkbox', label: 'Guard fitted' }),
    ]);
    steps.view.unmount();

    const { rows: sentPlans } = await dryRunOf(calls, 'pm-plans', {
      label: 'PM plans',
      hint: 'parts as "2 x SKU"',
      csv: 'ID,Name,Trigger,State,Work Order Title,Assets,Parts,Start Date\nPM-PLAN-0001,Pump monthly,calendar monthly 1,active,Monthly pump service,PMP-002,2 x BRG-6204,2026-01-01\n',
      fileName: 'pm-plans.csv',
      found: '1 rows, 8 columns',
      mapped: ['Work Order Title', 'Work Order Title *'],
      changes: '0 new, 1 updated, 0 unchanged.',
    });
    expect(sentPlans).toEqual([
      expect.objectContaining({
        planId: 'PM-PLAN-0001',
        name: 'Pump monthly',
        title: 'Monthly pump service',
        assets: 'PMP-002',
        parts: '2 x BRG-6204',
        startDate: '2026-01-01',
      }),
    ]);
  });

  it('offers work orders: their export maps column by column, the dry run says what would change', async () => {
    const calls = stubDryRuns({ 'work-orders': { total: 1, valid: 1, new: 0, updated: 1, unchanged: 0 } });
    const header = 'WO-ID,Status,Title,Priority,Start Date,End Date,Due Date,Duration,Assigned To,Asset,Created At';
    const { rows } = await dryRunOf(calls, 'work-orders', {
      label: 'Work orders',
      hint: 'A row with a WO-ID of this organisation updates that order',
      csv: `${header}\nWO-0001,assigned,Replace seal,low,,,,,Omar Saleh,Pump P-1,2026-01-01T00:00:00.000Z\n`,
      fileName: 'work-orders.csv',
      found: '1 rows, 11 columns',
      mapped: ['Assigned To', 'Assigned To'],
      changes: '0 new, 1 updated, 0 unchanged.',
    });
    expect(rows[0]).toMatchObject({
      workOrderId: 'WO-0001',
      title: 'Replace seal',
      assignees: 'Omar Saleh',
      asset: 'Pump P-1',
    });
  });

  it('says what a dry run would create, and what an import created', async () => {
    const created = (dryRun: boolean) => ({ body: { total: 1, valid: 1, imported: dryRun ? 0 : 1, dryRun, created: ['Weight'], missing: [], problems: [] } });
    stubFetch({
      'GET /api/user/get-app-data': appData,
      'GET /api/data-transfer/mapping/uoms': () => ({ body: { mapping: {} } }),
      'PUT /api/data-transfer/mapping/uoms': () => ({ body: { message: 'Mapping saved' } }),
      'POST /api/data-transfer/import/uoms': (_url, init) => created(JSON.parse(String(init.body)).dryRun),
    });
    renderWithProviders(<ImportExportPage />, { route: '/settings/import-export?kind=uoms' });
    await userEvent.upload(await fileInput(), new File(['Name,Category,Type\nKilogram,Weight,reference\n'], 'u.csv', { type: 'text/csv' }));
    await screen.findByTestId('import-found');
    await userEvent.click(screen.getByTestId('import-dry-run'));
    expect(await screen.findByTestId('import-created')).toHaveTextContent('Will be created: Weight.');
    await userEvent.click(screen.getByTestId('import-run'));
    await waitFor(() => expect(screen.getByTestId('import-created')).toHaveTextContent('Created: Weight.'));
  });

  it('says which required columns are not mapped, and keeps Import disabled', async () => {
    stubFetch({ 'GET /api/user/get-app-data': appData, 'GET /api/data-transfer/mapping/parts': () => ({ body: { mapping: {} } }) });
    renderWithProviders(<ImportExportPage />, { route: '/settings/import-export?kind=parts' });
    await userEvent.upload(await fileInput(), new File(['Name,Price\nBearing,3\n'], 'p.csv', { type: 'text/csv' }));
    expect(await screen.findByTestId('import-missing-columns')).toHaveTextContent('Required columns not mapped: Type, Category, Unit of Measure');
    await waitFor(() => expect(screen.getByTestId('import-run')).toBeDisabled());
  });
});

describe('organisation import (decision 069)', () => {
  it('asks first, sends the ZIP as multipart, and shows what came in, kind by kind', async () => {
    const counts = Object.fromEntries(ORGANISATION_IMPORT_KINDS.map((k) => [k, 0]));
    const calls = stubFetch({
      'GET /api/user/get-app-data': appData,
      'POST /api/data-transfer/import-organisation': () => ({
        body: { message: 'Organisation imported', counts: { ...counts, workOrders: 12, assets: 3, files: 2 }, rows: 40 },
      }),
    });
    renderWithProviders(<ImportExportPage />);
    const input = await screen.findByTestId('import-organisation-file');
    await userEvent.upload(input, new File([new Uint8Array([0x50, 0x4b, 0x05, 0x06])], 'acme.zip', { type: 'application/zip' }));
    await userEvent.click(await screen.findByTestId('confirm-yes'));
    const result = await screen.findByTestId('import-organisation-result');
    expect(result).toHaveTextContent('Imported: 40 records');
    expect(result).toHaveTextContent('Work orders: 12');
    expect(result).toHaveTextContent('Files: 2');
    expect(result).not.toHaveTextContent('Meters');
    const sent = calls.find((c) => c.method === 'POST')!;
    expect(sent.init.body).toBeInstanceOf(FormData);
    expect(((sent.init.body as FormData).get('file') as File).name).toBe('acme.zip');
  });

  it('sends nothing when the admin cancels', async () => {
    const calls = stubFetch({ 'GET /api/user/get-app-data': appData });
    renderWithProviders(<ImportExportPage />);
    await userEvent.upload(await screen.findByTestId('import-organisation-file'), new File(['x'], 'acme.zip', { type: 'application/zip' }));
    await userEvent.click(await screen.findByTestId('confirm-cancel'));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});
