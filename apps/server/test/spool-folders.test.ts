import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createProcessDir } from '../src/storage/process-dir';
import { createTempSpool } from '../src/storage/temp-spool';
import { filesUnder } from './files-helpers';

// DESIGN §6: each process spools into its own folder, emptied at start and removed at graceful
// exit, so a crash's temporary upload files do not wait for a later start an hour on.

const roots: string[] = [];
function root(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-spool-'));
  roots.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of roots) fs.rmSync(dir, { recursive: true, force: true });
});

async function* bytes(text: string) {
  yield Buffer.from(text);
}

const justNow = () => new Date(Date.now() - 60 * 60_000);

describe('spool folders per process', () => {
  it('a process spools into a folder of its own and removes it at graceful exit', async () => {
    const dir = root();
    const spool = createTempSpool(dir);
    const temp = await spool.write(bytes('partial upload'));
    expect(path.dirname(temp.path)).toBe(spool.dir);
    expect(path.dirname(spool.dir)).toBe(dir);
    expect(path.basename(spool.dir)).toMatch(new RegExp(`~${process.pid}~[0-9a-f]{12}$`));
    await spool.close();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('at start, the folder a crashed process left is removed at once, however young its files', async () => {
    const dir = root();
    // The crashed process: its folder keeps a half-written upload, written a moment ago.
    const crashedPid = 999_999_001;
    const crashed = createProcessDir(dir, { pid: crashedPid, isAlive: () => true });
    fs.mkdirSync(crashed.dir, { recursive: true });
    fs.writeFileSync(path.join(crashed.dir, 'a.part'), 'half an upload');
    // A running neighbour on this host (another instance on the same DATA_DIR) keeps its files.
    const neighbour = createProcessDir(dir, { pid: 999_999_002, isAlive: () => true });
    fs.mkdirSync(neighbour.dir, { recursive: true });
    fs.writeFileSync(path.join(neighbour.dir, 'b.part'), 'in flight');

    const restarted = createProcessDir(dir, { isAlive: (pid) => pid !== crashedPid });
    expect(await restarted.sweepStale(justNow())).toBe(1);
    expect(fs.existsSync(crashed.dir)).toBe(false);
    expect(filesUnder(dir)).toEqual([path.join(path.basename(neighbour.dir), 'b.part')]);
  });

  it("a restarted container's previous life (the same pid) is recognised as gone", async () => {
    const dir = root();
    const before = createProcessDir(dir, { pid: 1, isAlive: () => true });
    fs.mkdirSync(before.dir, { recursive: true });
    fs.writeFileSync(path.join(before.dir, 'c.part'), 'left by the crash');
    const after = createProcessDir(dir, { pid: 1, isAlive: () => true });
    expect(after.dir).not.toBe(before.dir);
    expect(await after.sweepStale(justNow())).toBe(1);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("another host's folder on a shared volume is only cleared of files older than the cutoff, and so are loose files of the old layout", async () => {
    const dir = root();
    const other = path.join(dir, 'other-host~42~abcdefabcdef');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'young.part'), 'y');
    fs.writeFileSync(path.join(other, 'old.part'), 'o');
    fs.writeFileSync(path.join(dir, 'legacy-old.part'), 'l');
    fs.writeFileSync(path.join(dir, 'legacy-young.part'), 'l');
    const old = new Date(Date.now() - 2 * 60 * 60_000);
    fs.utimesSync(path.join(other, 'old.part'), old, old);
    fs.utimesSync(path.join(dir, 'legacy-old.part'), old, old);
    expect(await createProcessDir(dir).sweepStale(justNow())).toBe(2);
    expect(filesUnder(dir).sort()).toEqual(['legacy-young.part', path.join('other-host~42~abcdefabcdef', 'young.part')]);
  });
});
