import { configDefaults, defineConfig } from 'vitest/config';

// Tests that start the production server as real processes (test/*-process helpers): they need
// the build, which `test/global-build.ts` makes when it is missing or older than the sources.
const MULTI_INSTANCE = 'test/multi-instance.test.ts';
// SQLite-only by nature (the SQLite backup API, a SQLite file after SIGKILL): run once, not per dialect.
const SQLITE_PROCESS_TESTS = ['test/faults.test.ts', 'test/operations.test.ts', 'test/reset-password-cli.test.ts'];

// Server integration tests run once per database. PostgreSQL joins when TEST_DATABASE_URL is set
// (`.ci/run` always sets it), so the same suites prove both dialects (DESIGN §1).
const serverProject = (dialect: 'sqlite' | 'postgres') => ({
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

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', root: './packages/shared', include: ['src/**/*.test.ts'], environment: 'node' } },
      serverProject('sqlite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres'), multiInstanceProject] : []),
      {
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./test/setup.ts'],
        },
      },
    ],
  },
});
