import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

/** The SPA: index.html at the repo root, built into dist/web (served by the API with an SPA fallback). */
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 500,
    rollupOptions: {
      output: {
        // Long-lived vendor chunks (cached across releases) and no chunk over 500 KB.
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return 'vendor-react';
          if (/node_modules\/(@mantine\/core|@mantine\/hooks|@floating-ui|react-remove-scroll|react-transition-group|react-number-format|react-textarea-autosize)/.test(id)) return 'vendor-mantine';
          if (/node_modules\/(zod|react-hook-form|@hookform)\//.test(id)) return 'vendor-forms';
          if (/node_modules\/(@tanstack|i18next|react-i18next|dayjs)\//.test(id)) return 'vendor-data';
          return undefined;
        },
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
});
