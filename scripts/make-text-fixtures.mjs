#!/usr/bin/env node
// Issue 33: writes the text-extraction fixtures (apps/server/test/text-fixtures.ts) into a folder,
// for the e2e journey and the benchmark: `node scripts/make-text-fixtures.mjs <dir>`.
// Node 22.18+ / 24 runs the TypeScript module as it is (type stripping).
const dir = process.argv[2];
if (!dir) {
  console.error('Usage: node scripts/make-text-fixtures.mjs <dir>');
  process.exit(2);
}
const { writeTextFixtures } = await import('../apps/server/test/text-fixtures.ts');
for (const file of await writeTextFixtures(dir)) console.log(file);
