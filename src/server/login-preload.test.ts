import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { createTestApp } from './test/harness';
import { buildApp } from './app';

// Issue 29: an organisation's /login fetches the login screen's files with the entry, not after it has run.
describe("the login page's preloads", () => {
  // The login chunk is keyed by its module, or by its own name when the build merged small modules into it.
  it.each(['src/features/auth/ui/login-standalone.tsx', '_login-standalone-c3.js'])(
    "an organisation's /login names the login chunk (%s), what it imports and its CSS; other pages and the bare domain do not",
    async (loginKey) => {
      const webRoot = mkdtempSync(join(tmpdir(), 'cmms-web-'));
      const index =
        '<!doctype html><html><head><title>x</title><script type="module" crossorigin src="/assets/index-a1.js"></script></head><body></body></html>';
      writeFileSync(join(webRoot, 'index.html'), index.replace('<body>', '<body><div id="root"></div>'));
      mkdirSync(join(webRoot, '.vite'));
      mkdirSync(join(webRoot, 'assets'));
      writeFileSync(join(webRoot, 'assets/login-standalone-e5.css'), '.login-root{color:red}');
      writeFileSync(
        join(webRoot, '.vite/manifest.json'),
        JSON.stringify({
          'index.html': { file: 'assets/index-a1.js', isEntry: true, imports: ['_api-b2.js'] },
          '_api-b2.js': { file: 'assets/api-b2.js' },
          [loginKey]: {
            file: 'assets/login-standalone-c3.js',
            name: 'login-standalone',
            imports: ['index.html', '_api-b2.js', '_zod-d4.js'],
            css: ['assets/login-standalone-e5.css'],
            isDynamicEntry: true,
          },
          '_zod-d4.js': { file: 'assets/zod-d4.js', imports: ['_api-b2.js'] },
        }),
      );
      const t = await createTestApp({ baseDomain: 'localhost' });
      const app = await buildApp({ database: t.database, config: t.config, logger: false, webRoot });
      try {
        const page = (host: string, url = '/login') => app.inject({ method: 'GET', url, headers: { host } });
        const login = (await page('acme.localhost')).body;
        // the CSS in the page (the static form paints without waiting for a file), and fetched early for the chunk
        expect(login).toContain('<style data-href="/assets/login-standalone-e5.css">.login-root{color:red}</style>');
        expect(login).toContain('<link rel="preload" as="style" crossorigin href="/assets/login-standalone-e5.css">');
        for (const f of ['login-standalone-c3', 'api-b2', 'zod-d4']) expect(login).toContain(`<link rel="modulepreload" crossorigin href="/assets/${f}.js">`);
        // the entry is in the page already
        expect(login).not.toContain('rel="modulepreload" crossorigin href="/assets/index-a1.js"');
        expect(login.indexOf('login-standalone-e5.css')).toBeLessThan(login.indexOf('</head>'));
        for (const other of [await page('acme.localhost', '/dashboard/work-orders'), await page('localhost')])
          expect(other.body).not.toContain('modulepreload');
        // no static form without the build's rendering of it: the page's #root stays empty
        expect(login).toContain('<div id="root"></div>');
      } finally {
        await app.close();
        await t.close();
      }
    },
    120_000,
  );
});

// Decision 050: the sign-in form's static HTML (rendered by the build into .vite/login.html) is in the first HTML
// of an organisation's /login, so it paints before any script has run.
describe("the login page's static form", () => {
  it("an organisation's /login carries the build's markup in #root, marked for the takeover; other pages and the bare domain do not", async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'cmms-web-'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>');
    mkdirSync(join(webRoot, '.vite'));
    const form =
      '<div class="login-root"><form><input name="email" data-testid="login-email"/><input name="password" data-testid="login-password"/></form></div>';
    writeFileSync(join(webRoot, '.vite/login.html'), form);
    const t = await createTestApp({ baseDomain: 'localhost' });
    const app = await buildApp({ database: t.database, config: t.config, logger: false, webRoot });
    try {
      const page = (host: string, url = '/login') => app.inject({ method: 'GET', url, headers: { host } });
      for (const url of ['/login', '/login/'])
        expect((await page('acme.localhost', url)).body).toContain(`<div id="root" data-prerendered="login">${form}</div>`);
      for (const other of [await page('acme.localhost', '/dashboard/work-orders'), await page('localhost'), await page('acme.localhost', '/register')]) {
        expect(other.body).toContain('<div id="root"></div>');
        expect(other.body).not.toContain('login-email');
      }
    } finally {
      await app.close();
      await t.close();
    }
  }, 120_000);

  it('the build renders the real screen: labelled email and password fields and the submit button', async () => {
    const { renderLoginHtml } = await import('../features/auth/ui/login-prerender');
    const html = renderLoginHtml();
    for (const id of ['login-email', 'login-password', 'login-submit']) expect(html).toContain(`data-testid="${id}"`);
    expect(html).toMatch(/<label class="login-label" for="([^"]+)">Email[\s\S]*id="\1"/);
  });
});

describe('the inline scripts of our own page', () => {
  it("the CSP allows index.html's inline head script by its hash, and no other inline script", async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'cmms-web-'));
    const script = '(()=>{document.documentElement.dataset.x="1"})();';
    writeFileSync(
      join(webRoot, 'index.html'),
      `<!doctype html><html><head><script>${script}</script><script type="module" src="/assets/m.js"></script></head><body><div id="root"></div></body></html>`,
    );
    const t = await createTestApp({ baseDomain: 'localhost' });
    const app = await buildApp({ database: t.database, config: t.config, logger: false, webRoot });
    try {
      const csp = String((await app.inject({ method: 'GET', url: '/login', headers: { host: 'acme.localhost' } })).headers['content-security-policy']);
      const hash = createHash('sha256').update(script).digest('base64');
      expect(csp).toMatch(new RegExp(`script-src 'self' 'sha256-${hash.replace(/[+/]/g, '\\$&')}';`));
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp.match(/'sha256-/g)).toHaveLength(1);
    } finally {
      await app.close();
      await t.close();
    }
  }, 120_000);
});
