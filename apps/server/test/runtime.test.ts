// Issue 30 item 12: Node.js 20 is past its end of life; Kinchart runs on Node.js 22 and 24 LTS and
// CI runs on 24 (docs/decisions/0038). These tests hold the runtime to what package.json promises
// and catch the one way the newer runtime broke us: better-sqlite3 12, built on Node 24's
// `node::ObjectWrap`, aborted the process (SIGABRT, "Assertion failed: (env) != nullptr") when a
// statement was collected after Node had torn its environment down — vitest saw it as "Worker exited
// unexpectedly", a server as a crash at shutdown.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(__dirname, '../../..');
const requireFromServer = createRequire(path.join(repoRoot, 'apps/server/package.json'));

/** Many statements left for the collector, then a natural end: the teardown that used to abort. */
const STATEMENT_CHURN = `
const Database = require(${JSON.stringify(requireFromServer.resolve('better-sqlite3'))});
const db = new Database(':memory:');
db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
for (let i = 0; i < 3000; i += 1) {
  db.prepare('INSERT INTO t (v) VALUES (?)').run('row ' + i);
  db.prepare('SELECT v FROM t WHERE id = ?').get(i);
}
globalThis.gc?.();
process.stdout.write('done');
`;

describe('the Node.js runtime', () => {
  it('is one of the LTS lines package.json supports (22 or 24)', () => {
    const engines = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } }).engines;
    expect(engines.node).toBe('^22.12.0 || ^24.0.0');
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    expect(major === 24 || (major === 22 && minor >= 12)).toBe(true);
  });

  it('lets a process that used the SQLite driver end cleanly, every time', () => {
    for (let run = 0; run < 12; run += 1) {
      const result = spawnSync(process.execPath, ['--expose-gc', '-e', STATEMENT_CHURN], { encoding: 'utf8', timeout: 30_000 });
      expect({ run, status: result.status, signal: result.signal, stdout: result.stdout }).toEqual({
        run,
        status: 0,
        signal: null,
        stdout: 'done',
      });
    }
  });

  it('refuses to start the product on Node.js 20 with one line saying why', () => {
    const check = path.join(repoRoot, 'scripts/check-node.mjs');
    const script = `Object.defineProperty(process.versions, 'node', { value: '20.20.2' }); await import(${JSON.stringify(check)});`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^Kinchart needs Node\.js 22 or 24 LTS; this is Node\.js 20\.20\.2/);
    expect(spawnSync(process.execPath, [check], { encoding: 'utf8' }).status).toBe(0);
  });
});
