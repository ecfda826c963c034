import { defineConfig } from 'vitest/config';

// Server integration tests run once per database. PostgreSQL joins when TEST_DATABASE_URL is set
// (`.ci/run` always sets it), so the same suites prove both dialects (DESIGN §1).
const serverProject = (dialect: 'sqlite' | 'postgres') => ({
  test: {
    name: `server-${dialect}`,
    root: './apps/server',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    env: { KINCHART_TEST_DIALECT: dialect },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks' as const,
  },
});

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', root: './packages/shared', include: ['src/**/*.test.ts'], environment: 'node' } },
      serverProject('sqlite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres')] : []),
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
