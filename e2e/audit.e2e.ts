/**
 * The audit log (decision 078) in the browser: an admin changes a work order, opens Settings -> Audit log, filters by
 * the record, reads the field's old -> new, exports the CSV, runs the chain check (intact). Then an audit row is
 * edited in the database behind the app's back (as its owner: the app's own role may not) and the check names it.
 * On PGlite the server is stopped for the edit (one process holds the files) and started again on the same data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { call, launchBrowser, newPage, signIn, signUpOrg, startServer, type TestServer } from './helpers';

let server: TestServer;
let browser: Browser;
const dataDir = mkdtempSync(join(tmpdir(), 'cmms-e2e-audit-'));
const start = () => startServer({ env: { DATA_DIR: dataDir } });

beforeAll(async () => {
  server = await start();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000 });

/** Runs one statement as the database's owner: on PostgreSQL beside the server, on PGlite with the server stopped. */
async function asOwner<T>(statement: string, params: unknown[]): Promise<T[]> {
  if (process.env.DATABASE_URL) {
    const { default: pg } = await import('pg');
    const owner = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await owner.connect();
    try {
      return (await owner.query(statement, params)).rows as T[];
    } finally {
      await owner.end();
    }
  }
  await server.stop();
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { btree_gin } = await import('@electric-sql/pglite/contrib/btree_gin');
  const db = await PGlite.create(join(dataDir, 'pglite'), { extensions: { pg_trgm, btree_gin } });
  try {
    return (await db.query<T>(statement, params)).rows;
  } finally {
    await db.close();
    server = await start();
  }
}

async function openAuditLog(page: Page, url: string, workOrderId: number) {
  await page.goto(`${url}/settings/audit-log`);
  await page.getByTestId('filter-entityType').fill('work-order');
  await page.getByTestId('filter-entityId').fill(String(workOrderId));
  await page.waitForURL(/entityId=/);
}

describe('audit log', () => {
  it('shows a change old -> new for the record, exports it, checks the chain, and names a row edited behind its back', { timeout: 300_000 }, async () => {
    const org = await signUpOrg(server, 'Audit');
    const host = `${org.subdomain}.localhost`;
    const login = await call(server.port, host, 'POST', '/api/login', { email: org.email, password: org.password });
    const added = await call(server.port, host, 'POST', '/api/work-orders/add-work-order', { title: 'Pump seal' }, login.body.accessToken);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const workOrderId = added.body.workOrder.id as number;

    const { context, page } = await newPage(browser);
    try {
      await signIn(page, org);
      await page.locator('tr', { hasText: 'Pump seal' }).click();
      await poll(() => page.getByTestId('wo-title').inputValue()).toBe('Pump seal');
      await page.getByTestId('wo-title').fill('Pump seal, drive end');
      await page.getByTestId('save-button').click();
      await page.getByText('Work order updated successfully', { exact: true }).waitFor();

      await openAuditLog(page, org.url, workOrderId);
      const rows = page.getByTestId('table-row');
      await poll(() => rows.count()).toBe(2);
      // Newest first: the change, then the creation.
      await poll(() => rows.first().innerText()).toContain('"Pump seal" → "Pump seal, drive end"');
      expect(await rows.first().innerText()).toContain(`work-order #${workOrderId}`);

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-export').click()]);
      const csv = (await readFile((await download.path())!)).toString('utf8');
      // (CSV doubles the quotes inside a quoted field)
      expect(csv).toContain('title: ""Pump seal"" -> ""Pump seal, drive end""');
      // The filter applies to the export: only this record's rows, no sign-in.
      expect(csv.trim().split('\n')).toHaveLength(3);
      expect(csv).not.toContain('/api/login');

      await page.getByTestId('audit-check').click();
      await poll(() => page.getByTestId('audit-check-result').innerText()).toMatch(/^The chain is intact: \d+ rows checked\.$/);
    } finally {
      await context.close();
    }

    const [edited] = await asOwner<{ seq: number }>(
      `update audit_log set records = jsonb_set(records, '{0,changes,title,to}', '"Pump seal, both ends"')
        where org_id = (select id from organizations where subdomain = $1) and entity_type = 'work-order' and action = 'update' returning seq`,
      [org.subdomain],
    );
    expect(edited.seq).toBeGreaterThan(1);

    const again = await newPage(browser);
    try {
      const url = server.orgUrl(org.subdomain);
      await signIn(again.page, { ...org, url });
      await openAuditLog(again.page, url, workOrderId);
      // The edit shows (nothing stops an owner), and the check names the row.
      await poll(() => again.page.getByTestId('table-row').first().innerText()).toContain('"Pump seal, both ends"');
      await again.page.getByTestId('audit-check').click();
      await poll(() => again.page.getByTestId('audit-check-result').innerText()).toBe(`The chain is broken at row ${edited.seq}: the row was changed.`);
    } finally {
      await again.context.close();
    }
  });
});
