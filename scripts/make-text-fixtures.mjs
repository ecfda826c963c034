#!/usr/bin/env node
// Issue 33: writes the text-extraction fixtures (apps/server/test/text-fixtures.ts) into a folder,
// for the e2e journey and the benchmark: `node scripts/make-text-fixtures.mjs <dir>`.
// Issue 34: and the lab reports (apps/server/test/lab-fixtures.ts: lab-us-clinic.pdf, lab-german.pdf,
// lab-two-columns.pdf, lab-scanned.pdf, lab-letter.pdf, lab-rotated.pdf), to upload and review by hand or in a journey.
// Node 22.18+ / 24 runs the TypeScript modules as they are (type stripping).
const dir = process.argv[2];
if (!dir) {
  console.error('Usage: node scripts/make-text-fixtures.mjs <dir>');
  process.exit(2);
}
const { writeTextFixtures } = await import('../apps/server/test/text-fixtures.ts');
const { writeLabFixtures } = await import('../apps/server/test/lab-fixtures.ts');
for (const file of await writeTextFixtures(dir)) console.log(file);
for (const file of await writeLabFixtures(dir)) console.log(file);
