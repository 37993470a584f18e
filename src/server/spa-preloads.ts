import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The login screen's own module (main.tsx imports it when /login opens on an organisation's host). */
const LOGIN_MODULE = 'src/features/auth/ui/login-standalone.tsx';
/** The technician's page (the router loads it for /dashboard/my-work). */
const MY_WORK_MODULE = 'src/features/my-work/ui/my-work-page.tsx';

interface ManifestChunk {
  file: string;
  name?: string;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/**
 * The <link> tags that fetch a lazily loaded screen's chunk, the chunks it imports and its CSS together with the
 * entry, instead of once the entry (and the shell) have run and asked for them: a second or third round of
 * requests before the screen can paint. Read from Vite's build manifest; '' without one. `inlineCss`: the
 * stylesheets are written into the page itself (the static login form paints with the HTML alone, decision 050).
 */
function chunkPreloads(webRoot: string, indexHtml: string, module: string, inlineCss: boolean): string {
  const file = join(webRoot, '.vite/manifest.json');
  if (!existsSync(file)) return '';
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  // Keyed by its module, or, when the build merged small modules into its chunk (vite.config.ts), by the chunk's
  // own name: that chunk is still the one the app imports for the screen.
  const name = module
    .split('/')
    .pop()!
    .replace(/\.tsx?$/, '');
  const entry = manifest[module] ? module : Object.keys(manifest).find((key) => manifest[key]!.isDynamicEntry && manifest[key]!.name === name);
  if (!entry) return '';
  const js: string[] = [];
  const css: string[] = [];
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || js.includes(chunk.file)) return;
    js.push(chunk.file);
    for (const f of chunk.css ?? []) if (!css.includes(f)) css.push(f);
    for (const i of chunk.imports ?? []) visit(i);
  };
  visit(entry);
  // what index.html loads already is left out; the hrefs are written as Vite's preloader writes them (it then
  // finds the stylesheet there and does not add it twice)
  const missing = (f: string) => !indexHtml.includes(`/${f}"`);
  const linked = (f: string) => `<link rel="stylesheet" crossorigin href="/${f}">`;
  // (When the chunk loads, Vite's preloader adds the inlined stylesheets' <link> too: the same rules again, nothing moves.)
  const inline = (f: string) => {
    const path = join(webRoot, f);
    if (!existsSync(path)) return linked(f);
    const text = readFileSync(path, 'utf8').replace(/<\/style/gi, '<\\/style');
    return `<style data-href="/${f}">${text}</style>\n    <link rel="preload" as="style" crossorigin href="/${f}">`;
  };
  return [
    ...css.filter(missing).map(inlineCss ? inline : linked),
    ...js.filter(missing).map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
  ].join('\n    ');
}

/** An organisation's /login: the login screen's files with the entry (issue 29), its CSS inline (decision 050). */
export const loginPreloads = (webRoot: string, indexHtml: string) => chunkPreloads(webRoot, indexHtml, LOGIN_MODULE, true);

/**
 * /dashboard/my-work, the technician's app opened cold (issue 46): its page's chunks came in a third round, after
 * the shell had run and the router asked for them (~130 ms on a fast link, several round trips on slow 4G).
 */
export const myWorkPreloads = (webRoot: string, indexHtml: string) => chunkPreloads(webRoot, indexHtml, MY_WORK_MODULE, false);

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
