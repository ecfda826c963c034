// Bundles the server (and the shared package it imports as TypeScript) into dist/server.js, and the
// operations commands (backup, restore, rotate-key: src/cli.ts) into dist/cli.js.
// npm packages stay external and load from node_modules at run time.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/server.ts', 'src/cli.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  alias: {},
  plugins: [
    {
      // Bundle @kinchart/shared (TypeScript source) rather than leaving it external.
      name: 'bundle-shared',
      setup(b) {
        b.onResolve({ filter: /^@kinchart\/shared\// }, async (args) => {
          const sub = args.path.slice('@kinchart/shared/'.length);
          return { path: new URL(`../../packages/shared/src/${sub}.ts`, import.meta.url).pathname };
        });
      },
    },
  ],
  sourcemap: true,
  logLevel: 'warning',
});
