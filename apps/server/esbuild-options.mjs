// esbuild options shared by the server build (build.mjs) and the benchmark's stage server
// (bench/stages.mjs): npm packages stay external and load from node_modules at run time, and
// @kinchart/shared (TypeScript source) is bundled in, and the server's PO catalogs compiled in (po-catalogs.mjs).
import { poEsbuildPlugin } from './po-catalogs.mjs';

export const bundleOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  plugins: [
    poEsbuildPlugin,
    {
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
};
