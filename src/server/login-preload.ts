import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The login screen's own module (main.tsx imports it when /login opens on an organisation's host). */
const LOGIN_MODULE = 'src/features/auth/ui/login-standalone.tsx';

interface ManifestChunk {
  file: string;
  name?: string;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/**
 * The <link> tags that let an organisation's /login fetch the login screen's chunk, the chunks it imports and its
 * CSS together with the entry, instead of once the entry has run and asked for them (issue 29: the form's first
 * paint waited for that second round of requests); the CSS is written into the page itself. Read from Vite's
 * build manifest; '' without one.
 */
export function loginPreloads(webRoot: string, indexHtml: string): string {
  const file = join(webRoot, '.vite/manifest.json');
  if (!existsSync(file)) return '';
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  // Keyed by its module, or, when the build merged small modules into its chunk (vite.config.ts), by the chunk's
  // own name: that chunk is still the one main.tsx imports for /login.
  const login = manifest[LOGIN_MODULE]
    ? LOGIN_MODULE
    : Object.keys(manifest).find((key) => manifest[key]!.isDynamicEntry && manifest[key]!.name === 'login-standalone');
  if (!login) return '';
  const js: string[] = [];
  const css: string[] = [];
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || js.includes(chunk.file)) return;
    js.push(chunk.file);
    for (const f of chunk.css ?? []) if (!css.includes(f)) css.push(f);
    for (const i of chunk.imports ?? []) visit(i);
  };
  visit(login);
  // what index.html loads already is left out; the hrefs are written as Vite's preloader writes them (it then
  // finds the stylesheet there and does not add it twice)
  const missing = (f: string) => !indexHtml.includes(`/${f}"`);
  // The stylesheets inline (decision 050): the static form paints with the HTML alone, without waiting for a file.
  // (When the login chunk loads, Vite's preloader adds their <link> too: the same rules again, nothing moves.)
  const inline = (f: string) => {
    const path = join(webRoot, f);
    if (!existsSync(path)) return `<link rel="stylesheet" crossorigin href="/${f}">`;
    const css = readFileSync(path, 'utf8').replace(/<\/style/gi, '<\\/style');
    return `<style data-href="/${f}">${css}</style>\n    <link rel="preload" as="style" crossorigin href="/${f}">`;
  };
  return [...css.filter(missing).map(inline), ...js.filter(missing).map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`)].join('\n    ');
}

/** The sign-in form's static HTML the build rendered (vite.config.ts, loginPrerender; decision 050); '' without it. */
export function loginMarkup(webRoot: string): string {
  const file = join(webRoot, '.vite/login.html');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** The page with that markup in its #root, marked so the lean boot hydrates it (login-standalone.tsx). */
export function withLoginMarkup(html: string, markup: string): string {
  if (!markup) return html;
  const root = '<div id="root"></div>';
  if (!html.includes(root)) throw new Error('index.html has no empty <div id="root"></div> to put the login form into');
  return html.replace(root, () => `<div id="root" data-prerendered="login">${markup}</div>`);
}
