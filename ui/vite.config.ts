import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The dashboard (issue 13, [UI-2]): `npm run build` bundles ui/ into dist/ui/, which
// `hookwerk serve` serves at `/` (the page) and `/ui/…` (assets). Everything it needs is in
// the bundle (uPlot, zod): no CDN, no network at run time.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/ui/',
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/ui', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
  },
});
