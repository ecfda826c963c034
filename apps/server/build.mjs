// Bundles the server (and the shared package it imports as TypeScript) into dist/server.js, and the
// operations commands (backup, restore, rotate-key: src/cli.ts) into dist/cli.js.
import { build } from 'esbuild';
import { bundleOptions } from './esbuild-options.mjs';

await build({ ...bundleOptions, entryPoints: ['src/server.ts', 'src/cli.ts'], outdir: 'dist' });
