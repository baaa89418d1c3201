import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The dashboard (served by the API at /ui): built into dist/ui by scripts/build-ui.mjs. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/ui/',
  build: {
    outDir: fileURLToPath(new URL('../dist/ui', import.meta.url)),
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
  },
  logLevel: 'warn',
});
