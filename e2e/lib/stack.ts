// A Vitest setup file (e2e/vitest.config.ts): points this worker's journeys at its own stack.
// e2e/run.mjs starts one stack per worker — server, data directory, mailbox, OpenID Connect
// provider — and lists them in E2E_STACKS in worker order; VITEST_POOL_ID (1, 2, …) says which
// worker this is. A worker runs one file at a time, so a stack serves one journey file at a time,
// as the single server did when the whole suite ran one file at a time (docs/decisions/0042).

const STACK_KEYS = ['E2E_BASE_URL', 'E2E_MAILBOX', 'E2E_DATA_DIR', 'E2E_OIDC_ISSUER'] as const;
type Stack = Record<(typeof STACK_KEYS)[number], string>;

const listed = process.env.E2E_STACKS;
if (!listed) throw new Error('E2E_STACKS is not set: run the browser tests with `npm run test:e2e` (e2e/run.mjs).');
const stacks = JSON.parse(listed) as Stack[];
const worker = Number(process.env.VITEST_POOL_ID);
const stack = stacks[worker - 1];
if (!stack) throw new Error(`No stack for Vitest worker ${process.env.VITEST_POOL_ID} (e2e/run.mjs started ${stacks.length})`);
for (const key of STACK_KEYS) process.env[key] = stack[key];
