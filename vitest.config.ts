import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { lingui } from '@lingui/vite-plugin';
import { poVitePlugin } from './apps/server/po-catalogs.mjs';

// One module registry per worker (`isolate: false`): a file then imports the server app, or React
// and jsdom, once per worker instead of once per file — that import (and jsdom's set-up) took a
// third of a server file's time and over half of a web file's (docs/decisions/0042). Every test still builds its own app, database and DOM, so
// what is shared is code, not state. A file that mocks a module (vi.mock / vi.doMock) is the
// exception: a mock lives in the registry, so such files keep a registry of their own, in a
// project of their own (`<name>-isolated`), found here by reading the test files themselves.
const repoRoot = fileURLToPath(new URL('.', import.meta.url));
const MOCKS_A_MODULE = /\bvi\.(?:mock|doMock)\(/;
function filesThatMockModules(root: string, dirs: string[]): string[] {
  const found: string[] = [];
  for (const dir of dirs) {
    const full = path.join(repoRoot, root, dir);
    if (!fs.existsSync(full)) continue;
    for (const entry of fs.readdirSync(full, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.test\.tsx?$/.test(entry.name) || entry.parentPath.includes('node_modules')) continue;
      const file = path.join(entry.parentPath, entry.name);
      if (MOCKS_A_MODULE.test(fs.readFileSync(file, 'utf8'))) found.push(path.relative(path.join(repoRoot, root), file));
    }
  }
  return found;
}

type Project = {
  plugins?: unknown[];
  resolve?: unknown;
  test: { name: string; root: string; exclude?: string[] } & Record<string, unknown>;
};
/** `project` with a shared registry, plus its module-mocking files (if any) in an isolated twin. */
function shareModules(project: Project, dirs: string[]): Project[] {
  const mocking = filesThatMockModules(project.test.root, dirs);
  const shared = {
    ...project,
    test: { ...project.test, isolate: false, exclude: [...(project.test.exclude ?? configDefaults.exclude), ...mocking] },
  };
  if (mocking.length === 0) return [shared];
  return [shared, { ...project, test: { ...project.test, name: `${project.test.name}-isolated`, isolate: true, include: mocking } }];
}

// Tests that start the production server as real processes (test/*-process helpers): they need
// the build, which `test/global-build.ts` makes when it is missing or older than the sources.
const MULTI_INSTANCE = 'test/multi-instance.test.ts';
// SQLite-only by nature (the SQLite backup API, a SQLite file after SIGKILL): run once, not per dialect.
const SQLITE_PROCESS_TESTS = ['test/faults.test.ts', 'test/operations.test.ts', 'test/reset-password-cli.test.ts'];

// Server integration tests run once per database. PostgreSQL joins when TEST_DATABASE_URL is set
// (`.ci/run` always sets it), so the same suites prove both dialects (DESIGN §1).
const serverProject = (dialect: 'sqlite' | 'postgres'): Project => ({
  // Issue 35: the server's PO catalogs, compiled as in the esbuild bundle.
  plugins: [poVitePlugin()],
  test: {
    name: `server-${dialect}`,
    root: './apps/server',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: [...configDefaults.exclude, MULTI_INSTANCE, ...(dialect === 'postgres' ? SQLITE_PROCESS_TESTS : [])],
    ...(dialect === 'sqlite' ? { globalSetup: ['./test/global-build.ts'] } : {}),
    environment: 'node',
    env: { KINCHART_TEST_DIALECT: dialect },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks' as const,
  },
});

// DESIGN §10: two production instances on one PostgreSQL database and one S3 endpoint (s3rver).
// Collected only when TEST_DATABASE_URL is set — never a silent skip.
const multiInstanceProject = {
  plugins: [poVitePlugin()],
  test: {
    name: 'multi-instance',
    root: './apps/server',
    include: [MULTI_INSTANCE],
    globalSetup: ['./test/global-build.ts'],
    environment: 'node',
    env: { KINCHART_TEST_DIALECT: 'postgres' },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks' as const,
  },
};

// Two workers, not Vitest's `numCpus - 1` (one on CI's 2-core machine): a server file spends much
// of its time waiting on PostgreSQL, argon2's thread pool and child processes (pdftotext,
// Tesseract), so a second worker fills that wait (docs/decisions/0057). VITEST_MAX_WORKERS=1 gives
// the old one-file-at-a-time run.
const maxWorkers = Number(process.env.VITEST_MAX_WORKERS ?? 2);

export default defineConfig({
  test: {
    maxWorkers,
    projects: [
      { test: { name: 'shared', root: './packages/shared', include: ['src/**/*.test.ts'], environment: 'node' } },
      ...shareModules(serverProject('sqlite'), ['test', 'src']),
      ...(process.env.TEST_DATABASE_URL ? [...shareModules(serverProject('postgres'), ['test', 'src']), multiInstanceProject] : []),
      ...shareModules(
        {
          // Issue 35: the app's Lingui macros and `.po` imports, as in apps/web/vite.config.ts.
          plugins: [lingui({ macroTransform: true, cwd: path.join(repoRoot, 'apps/web') })],
          // Components render inside an I18nProvider in tests too (apps/web/test/testing-library.tsx).
          resolve: {
            alias: [{ find: /^@testing-library\/react$/, replacement: path.join(repoRoot, 'apps/web/test/testing-library.tsx') }],
          },
          test: {
            name: 'web',
            root: './apps/web',
            include: ['src/**/*.test.{ts,tsx}'],
            environment: 'jsdom',
            setupFiles: ['./test/setup.ts'],
            // Above Testing Library's wait (test/setup.ts), so a cold compile under two workers
            // fails as the query that waited, never as a bare timeout (docs/decisions/0057).
            testTimeout: 15_000,
          },
        },
        ['src'],
      ),
    ],
  },
});
