import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Vitest globalSetup for the tests that run the production server as processes: build
// apps/server/dist (server.js, cli.js) when it is missing or older than any source it bundles, so
// `npm run test:unit` (which runs before `npm run build` in `npm test`) tests what `npm start` runs.
const serverDir = fileURLToPath(new URL('..', import.meta.url));
const sources = [path.join(serverDir, 'src'), path.join(serverDir, '../../packages/shared/src'), path.join(serverDir, 'build.mjs')];
const outputs = ['dist/server.js', 'dist/cli.js'].map((f) => path.join(serverDir, f));

function newestMtime(target: string): number {
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  const built = outputs.map((f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0));
  if (Math.min(...built) > Math.max(...sources.map(newestMtime))) return;
  execFileSync(process.execPath, ['build.mjs'], { cwd: serverDir, stdio: 'inherit' });
}
