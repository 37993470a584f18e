/**
 * Browser-journey helpers shared by every e2e file: a real server on a free port with its own database,
 * the system Chromium through playwright-core, an SMTP mailbox, and an organisation made through the API.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startSmtpServer, until, type ReceivedMail } from '../src/server/test/fixtures';

export const ROOT = resolve(import.meta.dirname, '..');
/** What `npm start` runs (scripts/build-server.mjs); scripts/e2e.mjs builds it when its sources are newer. */
export const SERVER_BUNDLE = join(ROOT, 'dist/server/main.mjs');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => res(port));
    });
  });
}

export interface TestServer {
  port: number;
  /** http://localhost:<port> (the landing page's host). */
  baseUrl: string;
  /** http://<sub>.localhost:<port> */
  orgUrl(subdomain: string): string;
  logs(): string;
  stop(): Promise<void>;
}

/**
 * Starts what `npm start` serves, the server bundle `dist/server/main.mjs`, on a free port: a temporary PGlite
 * DATA_DIR, or DATABASE_URL when set. Journeys run the bundle, not the sources, so a fault of the build fails
 * them (the label PDF once answered 500 only in the bundle). The SPA and the bundle must be built
 * (scripts/e2e.mjs does both). SEED_DEMO is off unless asked.
 */
export async function startServer(opts: { env?: Record<string, string>; seedDemo?: boolean; smtpUrl?: string; script?: string } = {}): Promise<TestServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'cmms-e2e-'));
  // The demo seed fills only an empty database: on PostgreSQL such a server gets a database of its own.
  const ownDb = opts.seedDemo && process.env.DATABASE_URL ? await createDatabase(process.env.DATABASE_URL) : undefined;
  let output = '';
  // `script`: a TypeScript entry of a benchmark's own (bench/frontend/serve.ts), run through tsx.
  const argv = opts.script ? [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), opts.script] : [SERVER_BUNDLE];
  const child: ChildProcess = spawn(process.execPath, argv, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BASE_DOMAIN: 'localhost',
      SEED_DEMO: opts.seedDemo ? 'true' : 'false',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      JWT_SECRET: `e2e-${randomBytes(12).toString('hex')}`,
      LOGIN_LIMIT_PER_IP: '10000',
      RATE_LIMIT_SCALE: '10000',
      ...(opts.smtpUrl ? { SMTP_URL: opts.smtpUrl } : {}),
      ...(ownDb ? { DATABASE_URL: ownDb.url } : {}),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += String(d)));
  child.stderr?.on('data', (d) => (output += String(d)));
  const baseUrl = `http://localhost:${port}`;
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      const res = await call(port, 'localhost', 'GET', '/api/health');
      if (res.status === 200) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in 240 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    port,
    baseUrl,
    orgUrl: (sub) => `http://${sub}.localhost:${port}`,
    logs: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
      await ownDb?.drop();
    },
  };
}

/** A fresh PostgreSQL database on the server of `adminUrl`, and a way to drop it. */
async function createDatabase(adminUrl: string) {
  const { default: pg } = await import('pg');
  const name = `cmms_e2e_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await c.end();
    },
  };
}

export interface CallResult {
  status: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

/** A JSON call to the server with a chosen Host header (organisations are found by host). */
export function call(port: number, host: string, method: string, path: string, body?: unknown, token?: string): Promise<CallResult> {
  return new Promise((res, rej) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          host: `${host}:${port}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (r) => {
        let data = '';
        r.on('data', (c) => (data += c));
        r.on('end', () => {
          let parsed: unknown = data;
          try {
            parsed = JSON.parse(data);
          } catch {
            /* not JSON */
          }
          res({ status: r.statusCode ?? 0, body: parsed, headers: r.headers });
        });
      },
    );
    req.on('error', rej);
    if (payload) req.write(payload);
    req.end();
  });
}

export interface TestOrg {
  subdomain: string;
  organization: string;
  email: string;
  password: string;
  url: string;
}

/** Signs up a fresh organisation through the API (its admin: email/password returned). */
export async function signUpOrg(server: TestServer, name = 'E2E Org'): Promise<TestOrg> {
  const subdomain = `e2e${randomBytes(4).toString('hex')}`;
  const org = { subdomain, organization: `${name} ${subdomain}`, email: `admin@${subdomain}.example.com`, password: 'Passw0rd!long' };
  const res = await call(server.port, 'localhost', 'POST', '/api/signup', {
    organization: org.organization,
    email: org.email,
    password: org.password,
    subdomainName: subdomain,
    numberOfWorkers: 5,
    consent: true,
  });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...org, url: server.orgUrl(subdomain) };
}

/** The system Chromium (never a downloaded browser). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/**
 * A fresh context (its own cookies and storage) and page. Desktop size unless told. The app's service worker
 * (decision 041) is blocked unless asked for: it would precache the whole build in the background of every
 * journey; the technician's offline journey allows it.
 */
export async function newPage(
  browser: Browser,
  opts: { width?: number; height?: number; serviceWorkers?: 'allow' | 'block' } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1366, height: opts.height ?? 860 },
    serviceWorkers: opts.serviceWorkers ?? 'block',
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}

/** Signs in through the login page of the organisation and waits for the work orders route. */
export async function signIn(page: Page, org: { url: string; email: string; password: string }) {
  await page.goto(`${org.url}/login`);
  await page.getByTestId('login-email').fill(org.email);
  await page.getByTestId('login-password').fill(org.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(new RegExp(`^${org.url.replace(/[.]/g, '\\.')}/dashboard/(work-orders|my-work)$`));
  // A worker on a phone lands on My work (issue 27; e2e/technician-offline.e2e.ts checks it): the journeys
  // that sign one in go on from the work orders list, as before.
  if (page.url().endsWith('/dashboard/my-work')) await page.goto(`${org.url}/dashboard/work-orders`);
  await page.getByTestId('side-menu').waitFor();
}

/**
 * A fresh desktop page signed in at `org`, opened at its `path` (null: where signing in lands) for `steps`; on a failure a full-page screenshot
 * goes to E2E_SHOTS when that is set. The context closes either way.
 */
export async function onSignedInPage(
  browser: Browser,
  org: { url: string; email: string; password: string },
  path: string | null,
  steps: (page: Page) => Promise<void>,
) {
  const { context, page } = await newPage(browser);
  try {
    await signIn(page, org);
    if (path !== null) await page.goto(`${org.url}${path}`);
    await steps(page);
  } catch (err) {
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/${Date.now()}.png`, fullPage: true });
    throw err;
  } finally {
    await context.close();
  }
}

/** The signed-in person's notification settings, opened from the user menu. */
export async function openNotificationSettings(page: Page) {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('menu-notification-settings').click();
  await page.getByTestId('notification-settings-form').waitFor();
}

/**
 * Picks an option of the select `testId` (a Mantine Select or combobox): opens it, types `search` first when given,
 * and clicks the first option whose name contains `option`.
 */
export async function pick(page: Page, testId: string, option: string, search?: string) {
  const input = page.getByTestId(testId);
  await input.click();
  if (search) await input.fill(search);
  await page.getByRole('option', { name: option, exact: false }).first().click();
}

/** Signs a worker in at the login page and waits for My work, where a worker lands. */
export async function signInWorker(page: Page, url: string, who: { email: string; password: string }) {
  await page.goto(`${url}/login`);
  await page.getByTestId('login-email').fill(who.email);
  await page.getByTestId('login-password').fill(who.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(`${url}/dashboard/my-work`);
}

/** A journey file's server (startServer's options) and browser, started in its beforeAll; `closeJourney` in its afterAll. */
export async function openJourney(opts: Parameters<typeof startServer>[0] = {}): Promise<{ server: TestServer; browser: Browser }> {
  const server = await startServer(opts);
  return { server, browser: await launchBrowser() };
}

export async function closeJourney(journey: { server?: TestServer; browser?: Browser }) {
  await journey.browser?.close();
  await journey.server?.stop();
}

/** A JSON call as a signed-in person: answers the body, throws on a refusal (status >= 400); `token` calls as someone else. */
export type Api = (method: string, path: string, body?: unknown, token?: string) => Promise<any>;

/** Signs in through the API at `host` and answers its token and an `Api` calling with it. */
export async function signedInApi(server: TestServer, host: string, who: { email: string; password: string }): Promise<{ api: Api; token: string }> {
  const login = await call(server.port, host, 'POST', '/api/login', { email: who.email, password: who.password });
  if (login.status !== 200) throw new Error(`login of ${who.email} failed: ${login.status} ${JSON.stringify(login.body)}`);
  const token = login.body.accessToken as string;
  const api: Api = async (method, path, body, as = token) => {
    const res = await call(server.port, host, method, path, body, as);
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  return { api, token };
}

/** A journey on a fresh organisation: its server, browser, organisation and its admin's `Api`. */
export async function openOrgJourney(name: string, opts: Parameters<typeof startServer>[0] = {}) {
  const journey = await openJourney(opts);
  const org = await signUpOrg(journey.server, name);
  return { ...journey, org, ...(await signedInApi(journey.server, `${org.subdomain}.localhost`, org)) };
}

/** An asset in an asset category of its own, made through the API: the asset's id. */
export async function addAssetInCategory(api: Api, name: string, category: { code: string; name: string }): Promise<number> {
  const assetCategoryId = (await api('POST', '/api/asset-categories/add-asset-category', category)).assetCategory.id;
  return (await api('POST', '/api/assets/add-asset', { name, date: '2024-01-01', assetCategoryId })).asset.id;
}

/** A work order made through the API: its id. */
export async function addWorkOrder(api: Api, fields: { title: string } & Record<string, unknown>): Promise<number> {
  return (await api('POST', '/api/work-orders/add-work-order', fields)).workOrder.id;
}

/** The demo organisation (SEED_DEMO) of the journeys that use it: its host, its admin and its technician Marcus. */
export const DEMO = {
  host: 'demo.localhost',
  admin: { email: 'admin@demo.com', password: 'Demo1234!' },
  tech: { email: 'tech1@demo.com', password: 'Demo1234!' },
};

/** The id of the organisation's person with e-mail `email`, asked through `api` (a manager's). */
export async function userIdByEmail(api: Api, email: string): Promise<number> {
  const { users } = (await api('GET', '/api/user/getCompanyUsers?pageSize=100')) as { users: { id: number; email: string }[] };
  return users.find((u) => u.email === email)!.id;
}

/** A journey on the demo organisation: its server, browser, URL, the admin's `Api` and a person's id by e-mail. */
export async function openDemoJourney(opts: Parameters<typeof startServer>[0] = {}) {
  const journey = await openJourney({ ...opts, seedDemo: true });
  const { api } = await signedInApi(journey.server, DEMO.host, DEMO.admin);
  const { users } = (await api('GET', '/api/user/getCompanyUsers?pageSize=100')) as { users: { id: number; email: string }[] };
  const userId = (email: string) => users.find((u) => u.email === email)!.id;
  return { ...journey, url: journey.server.orgUrl('demo'), api, userId };
}

/**
 * A real SMTP server collecting every message (the API tests' `startSmtpServer`, on a free port): pass `url` as
 * `smtpUrl`; `waitFor(to)` answers the first message to `to`.
 */
export async function startMailbox() {
  const smtp = await startSmtpServer();
  return {
    url: smtp.url,
    mails: smtp.inbox,
    /** Waits for a message to `to`. */
    async waitFor(to: string, timeoutMs = 20_000): Promise<ReceivedMail> {
      await until(() => smtp.received(to).length > 0, timeoutMs).catch(() => {
        throw new Error(`no mail to ${to}`);
      });
      return smtp.received(to)[0];
    },
    close: smtp.close,
  };
}

/** The text of the current toasts. */
export async function toastTexts(page: Page): Promise<string[]> {
  return page.locator('.mantine-Notification-root').allInnerTexts();
}

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  /** Each offending node: its selector and axe's summary of what to fix. */
  nodes: string[];
}

/**
 * Runs axe-core (injected from node_modules, WCAG 2.0/2.1/2.2 A and AA rules) on the page as it is and returns
 * the critical and serious findings; `where` names the screen state in each finding's text.
 */
export async function axeCriticalAndSerious(page: Page, where: string): Promise<AxeFinding[]> {
  // Evaluated through the debugging protocol: the page's CSP (script-src 'self') refuses an injected script tag.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: String(v.id),
      impact: String(v.impact),
      help: String(v.help),
      nodes: (v.nodes as { target: unknown[]; html: string; failureSummary?: string }[]).map(
        (n) => `${JSON.stringify(n.target)} ${n.html.slice(0, 160)} ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240)}`,
      ),
    }));
  });
  return violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => ({ ...v, help: `${where}: ${v.help}` }));
}
