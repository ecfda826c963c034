import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { lingui } from '@lingui/vite-plugin';
import tailwindcss from '@tailwindcss/vite';
import { pwa } from './pwa.config';

// The API runs on its own port in development; in production the server serves this build from
// the same origin (DESIGN §1). changeOrigin stays false so the proxied request keeps the dev
// server's Host, which the server's CSRF check compares with the browser's Origin (DESIGN §5).
const apiProxy = { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } };

export default defineConfig({
  // Issue 35: Lingui's macros are compiled natively (no Babel pass); `.po` catalogs import as
  // compiled messages, one chunk per language. A catalog with an ICU syntax error fails the build.
  plugins: [react(), lingui({ macroTransform: true, failOnCompileError: true }), tailwindcss(), pwa()],
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
  // The manifest lets the benchmark measure each route's JavaScript (DESIGN §9).
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, manifest: true },
});
