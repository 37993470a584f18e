import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

/** Writes <file>.br and <file>.gz next to every text file of the build; the server sends them as they are. */
function precompress(): Plugin {
  let outDir = 'dist/web';
  return {
    name: 'cmms-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
      for (const file of walk(outDir).filter((f) => /\.(js|css|html|svg|json|txt)$/.test(f))) {
        const data = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
        );
      }
    },
  };
}

/**
 * The theme and language script (src/web/color-scheme.ts) inline in index.html's <head> instead of a module at
 * the end of <body>: it runs before the first paint, which an organisation's /login now makes with the form's
 * static HTML before any file has arrived (decision 050). Bundled apart by esbuild into a ~1 KB IIFE. The CSP
 * refuses inline scripts but this one: the server allows the inline scripts of its own index.html by their
 * hashes (src/server/inline-scripts.ts). The dev server keeps running it as a module.
 */
function headScript(): Plugin[] {
  const entry = fileURLToPath(new URL('src/web/color-scheme.ts', import.meta.url));
  const tag = /\s*<script type="module" src="\/src\/web\/color-scheme\.ts"><\/script>/;
  let code = '';
  return [
    {
      name: 'cmms-head-script',
      apply: 'build',
      async buildStart() {
        const { build } = await import('esbuild');
        const out = await build({ entryPoints: [entry], bundle: true, format: 'iife', minify: true, write: false, target: 'es2020', logLevel: 'silent' });
        code = out.outputFiles[0].text.trim();
      },
      transformIndexHtml: {
        order: 'pre',
        handler: (html) => html.replace(tag, ''),
      },
    },
    {
      name: 'cmms-head-script-tag',
      apply: 'build',
      transformIndexHtml: {
        order: 'post',
        handler: (html, ctx) => (ctx.path === '/index.html' ? [{ tag: 'script', children: code, injectTo: 'head' }] : html),
      },
    },
  ];
}

/**
 * The sign-in screen rendered to static HTML once per build (decision 050): dist/web/.vite/login.html, which
 * the server puts into #root of an organisation's /login (src/server/app.ts). Rendered by the same sources
 * (src/features/auth/ui/login-prerender.tsx) through Vite's SSR loader, so the markup is what the lean boot
 * hydrates.
 */
function loginPrerender(): Plugin {
  let outDir = 'dist/web';
  let root = process.cwd();
  return {
    name: 'cmms-login-prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      const { createServer } = await import('vite');
      const server = await createServer({
        configFile: false,
        root,
        logLevel: 'error',
        appType: 'custom',
        plugins: [react()],
        server: { middlewareMode: true, hmr: false, watch: null, ws: false },
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const mod = (await server.ssrLoadModule('/src/features/auth/ui/login-prerender.tsx')) as { renderLoginHtml(): string };
        mkdirSync(join(outDir, '.vite'), { recursive: true });
        writeFileSync(join(outDir, '.vite/login.html'), mod.renderLoginHtml());
      } finally {
        await server.close();
      }
    },
  };
}

/**
 * Modules of Mantine that import a whole library for one small piece, pointed at that piece (build only):
 * - ScrollArea (the side menu, every table) takes only `useMergeRefs` from @floating-ui/react, a single module:
 *   with it the whole of floating-ui the menus and tooltips use (~13 KB gzipped) came with the first page. It
 *   resolves to the same hook written on Mantine's useMergedRef (src/web/lib/merge-refs.ts).
 * - AppShell's header, footer and aside read two class names of react-remove-scroll (~4 KB gzipped, issue 46):
 *   src/web/lib/remove-scroll-class-names.ts.
 */
function leanMantineImports(): Plugin {
  const shims: { source: string; importer: RegExp; shim: string }[] = [
    {
      source: '@floating-ui/react',
      importer: /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/,
      shim: fileURLToPath(new URL('src/web/lib/merge-refs.ts', import.meta.url)),
    },
    {
      source: 'react-remove-scroll',
      importer: /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]AppShell[\\/]AppShell(Header|Footer|Aside)[\\/]AppShell\1\.mjs$/,
      shim: fileURLToPath(new URL('src/web/lib/remove-scroll-class-names.ts', import.meta.url)),
    },
  ];
  return {
    name: 'cmms-lean-mantine-imports',
    enforce: 'pre',
    resolveId(source, importer) {
      const hit = importer ? shims.find((s) => s.source === source && s.importer.test(importer)) : undefined;
      return hit ? hit.shim : null;
    },
  };
}

/**
 * The installable app (issue 27, decision 041): the manifest and a Workbox service worker (generateSW) that
 * precaches the app shell (index.html and the built assets) and answers navigations with index.html, so the
 * technician's My work opens offline. It caches no API answer and no upload: those go to the network, and the
 * technician's data lives in IndexedDB (src/features/my-work). A new version waits until the user reloads
 * from the prompt (registerType 'prompt', src/web/pwa): never half-applied.
 */
const pwa = () =>
  VitePWA({
    registerType: 'prompt',
    injectRegister: false,
    manifestFilename: 'manifest.webmanifest',
    includeAssets: ['icons/apple-touch-icon.png', 'icons/logo.svg'],
    manifest: {
      id: '/dashboard/my-work',
      name: 'CMMS: My work',
      short_name: 'My work',
      description: 'Work orders, time, parts and procedures for technicians, online or not.',
      // Relative to the host it was installed from: the organisation's own host (decision 029).
      start_url: '/dashboard/my-work',
      scope: '/',
      display: 'standalone',
      orientation: 'portrait',
      // The light theme's; the dark theme's is index.html's media-specific theme-color.
      theme_color: '#4c6ef5',
      background_color: '#ffffff',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    workbox: {
      // The shell: every built script and style, index.html, the icons. Not the .gz/.br twins.
      globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
      // The Arabic font and the rarely used big chunks still load when asked, from the network or the HTTP cache.
      maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      navigateFallback: '/index.html',
      // API calls (the API docs too) and uploads are never answered by the worker (auth, freshness), nor the
      // public request portal's pages (/r/<code>, /portal: the server answers them with portal.html, decision 039).
      navigateFallbackDenylist: [/^\/api\//, /^\/uploads\//, /^\/r\//, /^\/portal/],
      runtimeCaching: [],
      // Web Push (decision 075): the push and notification-click handlers, public/push-sw.js.
      importScripts: ['/push-sw.js'],
      cleanupOutdatedCaches: true,
      clientsClaim: false,
      skipWaiting: false,
    },
  });

/** The SPA: index.html at the repo root, built into dist/web (served by the API with an SPA fallback). */
export default defineConfig(({ command }) => ({
  plugins: [react(), ...headScript(), loginPrerender(), pwa(), precompress(), ...(command === 'build' ? [leanMantineImports()] : [])],
  resolve: {
    // React Router 7's package exports only its development build (warnings and dev-only checks): the app's
    // build takes the production one it ships next to it (remix-run/react-router#14102).
    alias:
      command === 'build'
        ? [{ find: /^react-router$/, replacement: fileURLToPath(new URL('node_modules/react-router/dist/production/index.mjs', import.meta.url)) }]
        : [],
  },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // No chunk over 500 KB. No manual vendor chunks: they pulled every vendor into the first page; each page
    // now loads only the modules it uses (issue 9: login at most 100 KB of gzipped JavaScript).
    chunkSizeWarningLimit: 500,
    // .vite/manifest.json: the server reads which files the login screen needs, to have /login fetch them with
    // the entry (src/server/spa-preloads.ts)
    manifest: true,
    // No modulepreload polyfill (every browser we support preloads modules itself): shared by both entries, the
    // tiny polyfill was merged into a dashboard chunk (its dictionaries) that the public portal page then loaded.
    modulePreload: { polyfill: false },
    rollupOptions: {
      // The SPA, and the public request portal's own small page (decision 039: under 80 KB of gzipped JavaScript).
      input: { main: fileURLToPath(new URL('index.html', import.meta.url)), portal: fileURLToPath(new URL('portal.html', import.meta.url)) },
      output: {
        // React alone in a chunk, and the portal's vocabularies in one of their own: the public portal page
        // shares only these with the SPA, and the merging below cannot put dashboard code (its dictionaries,
        // Mantine's hooks) into what that page loads. Every page loads React anyway.
        // The record links (the bell, the dashboard's activity, insights) too: merged as a small chunk, they landed
        // in the entry the sign-in page loads.
        manualChunks: (id) =>
          /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id)
            ? 'react'
            : /request-portal[\\/]request-portal\.values\.ts$/.test(id)
              ? 'portal-values'
              : /src[\\/]web[\\/]app[\\/]record-links\.ts$/.test(id)
                ? 'record-links'
                : // The Arabic dictionary, for Arabic readers only: merged as a small chunk it rode into the list's
                  // chunks (8 KB more on every English list).
                  /src[\\/]web[\\/]i18n[\\/]ar\.ts$/.test(id)
                  ? 'i18n-ar'
                  : undefined,
        // Chunks under ~10 KB with no top-level effects (single Mantine components, hooks, icons) are merged into a
        // chunk loaded in the same places: the shell and the work orders list came in 51 files, each a request
        // on one of the browser's six connections. At 3 KB small shared modules rode into chunks of pages a list
        // does not show (the second-factor step with an icon the list uses): 222.2 KB on the list; 10 KB: 219.3,
        // the sign-in page 99.2 (0: 222.5; 4.5 KB: 220.4; 6 KB: 220.0). Issue 46, decision 053's addendum. After the
        // list kit's consolidation (issue 40) and the Arabic dictionary in a chunk of its own: 8 KB 219.8 and 99.5
        // (6: 220.6; 10: 220.2; 12: 220.1; 14: 220.2): the packing moves by a few hundred bytes with any change.
        experimentalMinChunkSize: 8000,
      },
      // The list-screen kit (src/web/components) is imported through one index: a module of it that a page
      // does not use must not come along for its top-level calls (line-items registers its strings, and would
      // bring the rich text editor into every list page).
      treeshake: {
        moduleSideEffects: (id) => !/\/src\/web\/components\/[^/]+\.tsx?$/.test(id),
      },
    },
  },
  server: {
    // *.localhost subdomains reach the dev server; the proxy keeps the Host header so the API finds the organisation.
    allowedHosts: ['.localhost'],
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/uploads': { target: apiTarget, changeOrigin: false },
    },
  },
}));
