import fs from 'node:fs';
import { EventEmitter } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, filesUnder, multipartBody, storedBlobs } from './files-helpers';
import type { ServerProcess } from './server-process';
import { HttpClient, signUp, startServer, streamingUpload } from './server-process';

// Faults (DESIGN §5, §6): the production server as a real process, killed with SIGKILL in the middle of
// uploads and profile writes, then started again on the same DATA_DIR (SQLite, local file store).
// And the other way to stop: SIGTERM lets the requests in flight finish.

const ORIGIN = 'http://127.0.0.1';
const dirs: string[] = [];
const servers: ServerProcess[] = [];

function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-faults-'));
  dirs.push(dir);
  return dir;
}
async function start(dir: string): Promise<ServerProcess> {
  const server = await startServer({ DATA_DIR: dir, PUBLIC_URL: ORIGIN });
  servers.push(server);
  return server;
}

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const pdf = (size: number) => Buffer.concat([fixture('record.pdf'), randomBytes(size)]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Blobs on disk without a medical_files row, and rows whose blob is missing. */
function reconcile(dir: string): { blobsWithoutRow: string[]; rowsWithoutBlob: string[]; temp: string[] } {
  const db = new SQLite(path.join(dir, 'kinchart.db'), { readonly: true, fileMustExist: true });
  try {
    const keys = new Set(
      (db.prepare('SELECT storage_key FROM medical_files').all() as { storage_key: string }[]).map((r) => r.storage_key),
    );
    const { committed, temp } = storedBlobs(dir);
    const onDisk = new Set(committed.map((f) => path.basename(f)));
    return {
      blobsWithoutRow: [...onDisk].filter((k) => !keys.has(k)),
      rowsWithoutBlob: [...keys].filter((k) => !onDisk.has(k)),
      temp,
    };
  } finally {
    db.close();
  }
}

describe('a crash in the middle of writes', () => {
  it(
    'after SIGKILL and a restart: the database is intact, every acknowledged write is there, rows and blobs match',
    { timeout: 120_000 },
    async () => {
      const dir = dataDir();
      const first = await start(dir);
      const client = new HttpClient(ORIGIN);
      await signUp(client, first.url);

      const acked = {
        files: [] as { id: string; url: string; content: Buffer }[],
        contacts: [] as string[],
        medications: [] as string[],
        appointments: [] as string[],
        profileVersion: -1,
      };
      const refused: string[] = [];
      let stopping = false;
      // Told after each answered step, so the test waits for the writes themselves, not for time.
      const progress = new EventEmitter();
      /** Runs `step` until the server goes away; a 2xx is an acknowledged write, anything else a failure. */
      const worker = async (step: (n: number) => Promise<void>) => {
        for (let n = 0; !stopping; n += 1) {
          try {
            await step(n);
          } catch {
            return; // the connection died with the server: not acknowledged
          }
          progress.emit('step');
        }
      };
      const check = (what: string, res: { status: number }) => {
        if (res.status < 200 || res.status > 299) refused.push(`${what}: ${res.status}`);
        return res.status >= 200 && res.status <= 299;
      };
      const uploader = (w: number) =>
        worker(async (n) => {
          const content = pdf(20_000 + ((n * 37_000 + w * 11_000) % 400_000));
          const res = await client.postMultipart(
            first.url,
            '/api/user/files',
            multipartBody([{ name: 'file', filename: `c${w}-${n}.pdf`, content }]),
          );
          if (check('upload', res)) acked.files.push({ id: res.json().id, url: res.json().url, content });
        });
      const workers = [
        uploader(0),
        uploader(1),
        worker(async (n) => {
          const res = await client.put(first.url, '/api/user/updateProfile', {
            name: `Version ${n}`,
            has_allergies: true,
            allergy_details: `Allergy ${n}`,
          });
          if (check('profile', res)) acked.profileVersion = n;
        }),
        worker(async (n) => {
          const res = await client.post(first.url, '/api/user/emergency-contacts', {
            name: `Contact ${n}`,
            phone_number: '555-0100',
            is_primary: false,
            has_medical_power: false,
          });
          if (check('contact', res)) acked.contacts.push(`Contact ${n}`);
        }),
        worker(async (n) => {
          const res = await client.post(first.url, '/api/user/medications', {
            medication_name: `Med ${n}`,
            dosage: '1 mg',
            is_current: true,
          });
          if (check('medication', res)) acked.medications.push(`Med ${n}`);
        }),
        worker(async (n) => {
          const res = await client.post(first.url, '/api/user/appointments', {
            appointment_date: '2027-01-15',
            start_time: null,
            end_time: null,
            provider_name: `Dr. ${n}`,
          });
          if (check('appointment', res)) acked.appointments.push(`Dr. ${n}`);
        }),
      ];
      // And one upload that is certainly half-way when the process dies: its first 64 KiB are sent, the rest never is.
      const slow = streamingUpload(first.url, client, pdf(3_000_000));
      await slow.started;

      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('timed out waiting for some acknowledged writes')), 60_000);
        const enough = () => {
          if (!(acked.files.length >= 4 && acked.profileVersion >= 5 && acked.contacts.length >= 5 && acked.appointments.length >= 5))
            return;
          clearTimeout(timer);
          progress.off('step', enough);
          resolve();
        };
        progress.on('step', enough);
      });
      first.child.kill('SIGKILL');
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      stopping = true;
      await Promise.all(workers);
      await expect(slow.response).rejects.toThrow();
      slow.close();
      expect(refused).toEqual([]);
      // The crash left the half-sent upload in the dead process's spool folder.
      expect(storedBlobs(dir).temp.length).toBeGreaterThanOrEqual(1);

      // Restart on the same DATA_DIR: the dead process's spool folder goes at once (DESIGN §6).
      const second = await start(dir);
      await until(() => storedBlobs(dir).temp.length === 0, 15_000, "the start-up sweep of the dead process's spool folder");
      const db = new SQLite(path.join(dir, 'kinchart.db'), { readonly: true, fileMustExist: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(db.pragma('foreign_key_check')).toEqual([]);
      } finally {
        db.close();
      }
      // The session was a committed write too.
      expect((await client.get(second.url, '/api/auth/check-auth')).status).toBe(200);

      // Every acknowledged write is there.
      const profile = (await client.get(second.url, '/api/user/getPatientProfile')).json();
      const version = Number(/^Version (\d+)$/.exec(profile.name as string)?.[1]);
      // The last acknowledged update, or the one in flight when the process died — never a mix of two.
      expect([acked.profileVersion, acked.profileVersion + 1]).toContain(version);
      expect(profile.allergy_details).toBe(`Allergy ${version}`);
      const names = (list: { name?: string; medication_name?: string }[]) => new Set(list.map((x) => x.name ?? x.medication_name));
      const contacts = names(profile.emergency_contacts);
      for (const c of acked.contacts) expect(contacts.has(c), c).toBe(true);
      const medications = names(profile.medications);
      for (const m of acked.medications) expect(medications.has(m), m).toBe(true);
      const appointments = new Set(
        (await client.get(second.url, '/api/user/appointments')).json<{ provider_name: string }[]>().map((a) => a.provider_name),
      );
      for (const a of acked.appointments) expect(appointments.has(a), a).toBe(true);
      const listed = (await client.get(second.url, '/api/user/files')).json<{ id: string; url: string }[]>();
      expect(listed.length).toBeGreaterThanOrEqual(acked.files.length);
      for (const f of acked.files) {
        const res = await client.get(second.url, f.url);
        expect(res.status, f.id).toBe(200);
        expect(res.body.equals(f.content), f.id).toBe(true);
      }
      // Rows committed whose answer was lost open too: no row points to a missing or torn blob.
      for (const f of listed) expect((await client.get(second.url, f.url)).status, f.id).toBe(200);
      const afterCrash = reconcile(dir);
      expect(afterCrash.rowsWithoutBlob).toEqual([]);
      // What the crash can leave besides: a blob committed just before its row, for each upload in
      // flight that had got that far. Each belongs to an unacknowledged upload.
      expect(afterCrash.temp).toEqual([]);
      expect(afterCrash.blobsWithoutRow.length).toBeLessThanOrEqual(2);

      // The start-up sweep leaves committed blobs younger than its grace period alone (another
      // instance may be between commit and row: features/files/file-orphans.ts). A start after that
      // period removes every leftover: age them past it and start again.
      expect(await second.stop()).toEqual({ code: 0, signal: null });
      const old = new Date(Date.now() - 2 * 60 * 60_000);
      for (const f of filesUnder(path.join(dir, 'files'))) fs.utimesSync(path.join(dir, 'files', f), old, old);
      const third = await start(dir);
      await until(
        () => {
          const r = reconcile(dir);
          return r.temp.length === 0 && r.blobsWithoutRow.length === 0;
        },
        15_000,
        'the start-up sweep',
      );
      expect(reconcile(dir)).toEqual({ blobsWithoutRow: [], rowsWithoutBlob: [], temp: [] });
      expect((await client.get(third.url, '/api/user/files')).json()).toHaveLength(listed.length);
      expect(await third.stop()).toEqual({ code: 0, signal: null });
    },
  );
});

describe('graceful shutdown', () => {
  it('SIGTERM lets an upload in flight finish with 201, refuses new connections, and exits 0', { timeout: 60_000 }, async () => {
    const dir = dataDir();
    const server = await start(dir);
    const client = new HttpClient(ORIGIN);
    await signUp(client, server.url);
    const content = pdf(1_500_000);
    const upload = streamingUpload(server.url, client, content, { customName: 'Finished after SIGTERM' });
    await upload.started;
    // The server is streaming the file into its spool.
    await until(() => storedBlobs(dir).temp.length === 1, 20_000, 'the upload to reach the spool');
    server.child.kill('SIGTERM');
    // It stops listening…
    const refused = async () => {
      try {
        await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(1_000) });
        return false;
      } catch {
        return true;
      }
    };
    for (let i = 0; !(await refused()); i += 1) {
      if (i > 100) throw new Error('still accepting connections after SIGTERM');
      await sleep(50);
    }
    // …and the upload started before goes on to the end.
    upload.finish({ chunkSize: 64 * 1024, delayMs: 20 });
    const res = await upload.response;
    expect(res.status, res.body).toBe(201);
    // The upload's connection stays open on the client's side, as a browser's would: the server
    // closes it once idle rather than waiting out the keep-alive timeout (and its own 10 s limit).
    expect(await server.exited).toEqual({ code: 0, signal: null });
    upload.close();
    // A graceful exit takes the process's spool folder with it.
    expect(fs.readdirSync(path.join(dir, 'files', '.tmp'))).toEqual([]);
    const importSpool = path.join(dir, 'import-spool');
    expect(fs.existsSync(importSpool) ? fs.readdirSync(importSpool) : []).toEqual([]);

    const again = await start(dir);
    const [record] = (await client.get(again.url, '/api/user/files')).json<{ id: string; name: string; url: string }[]>();
    expect(record?.name).toBe('Finished after SIGTERM');
    expect((await client.get(again.url, record!.url)).body.equals(content)).toBe(true);
    expect(await again.stop()).toEqual({ code: 0, signal: null });
  });
});
