// Bundles the server (and the shared package it imports as TypeScript) into dist/server.js, the
// operations commands (backup, restore, rotate-key, reindex, worker: src/cli.ts) into dist/cli.js,
// and the text worker thread (issue 33) into dist/text-worker.js, beside them.
import { build } from 'esbuild';
import { bundleOptions } from './esbuild-options.mjs';

await build({
  ...bundleOptions,
  entryPoints: [
    { in: 'src/server.ts', out: 'server' },
    { in: 'src/cli.ts', out: 'cli' },
    { in: 'src/features/text/text-worker.ts', out: 'text-worker' },
  ],
  outdir: 'dist',
});
