import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser journeys against the production servers that e2e/run.mjs starts: one per worker
// (E2E_WORKERS, 2 by default), each file in its worker's own Chromium against its worker's own
// server (lib/stack.ts). A worker runs one file at a time; the two cores run two.
const workers = Number(process.env.E2E_WORKERS ?? 1);

export default defineConfig({
  test: {
    name: 'e2e',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['tests/**/*.e2e.ts'],
    environment: 'node',
    setupFiles: ['./lib/stack.ts'],
    maxWorkers: workers,
    fileParallelism: workers > 1,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
