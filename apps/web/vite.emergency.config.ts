import { defineConfig } from 'vite';
import tailwindcss from '@tailwindcss/vite';
import { lingui } from '@lingui/vite-plugin';

/*
 * The emergency page's own entry point (DESIGN §7): emergency.html and its script, built apart
 * from the app with Preact standing in for React, so a responder's phone downloads a few
 * kilobytes instead of the app. The same components run in the app under React (its router
 * shows this screen too); here `react` resolves to preact/compat.
 *
 * `vite build -c vite.emergency.config.ts` writes the page and its assets into dist (after the
 * app's build, without emptying it); with `--ssr` it writes the server's renderer into dist-ssr,
 * Preact bundled in, so the Node server needs nothing from this package's dependencies.
 */
const preactAliases = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [lingui({ macroTransform: true, failOnCompileError: true }), tailwindcss()],
  resolve: { alias: preactAliases },
  ssr: { noExternal: true },
  build: isSsrBuild
    ? {
        outDir: 'dist-ssr',
        emptyOutDir: true,
        sourcemap: false,
        rollupOptions: { input: 'src/emergency/entry-server.tsx', output: { entryFileNames: 'emergency-server.js' } },
      }
    : {
        outDir: 'dist',
        emptyOutDir: false,
        sourcemap: false,
        manifest: 'emergency-manifest.json',
        rollupOptions: { input: { emergency: 'emergency.html' } },
      },
}));
