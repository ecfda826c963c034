// `npm start` runs this first: Kinchart supports Node.js 22 and 24 LTS (docs/decisions/0038).
// On an older Node, better-sqlite3 13's addon crashes the process with no message, so say why
// in one line instead. Plain JavaScript that even an old Node parses.
const [major] = process.versions.node.split('.').map(Number);
if (major < 22) {
  console.error(
    `Kinchart needs Node.js 22 or 24 LTS; this is Node.js ${process.versions.node} (Node.js 20 has had no security fixes since 2026-04-30).`,
  );
  process.exit(1);
}
