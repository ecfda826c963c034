import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, migrateTo } from '../src/db/database';
import { fileAssociatedData, unwrapDataKey } from '../src/storage/envelope';
import { fixture, multipartBody, storedBlobs } from './files-helpers';
import type { ServerProcess } from './server-process';
import { HttpClient, runCli, signUp, startServer } from './server-process';

// The operations commands as an operator runs them (`npm run backup|restore|rotate-key` run
// dist/cli.js) against a SQLite deployment served by the production server.

const ORIGIN = 'http://127.0.0.1';
const dirs: string[] = [];
const servers: ServerProcess[] = [];
const newDir = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-ops-'));
  dirs.push(dir);
  return dir;
};
async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer({ PUBLIC_URL: ORIGIN, ...env });
  servers.push(server);
  return server;
}

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every row that belongs to `userId`, table by table (the users row included). */
function rowsOf(dbFile: string, userId: string): Record<string, unknown[]> {
  const db = new SQLite(dbFile, { readonly: true, fileMustExist: true });
  try {
    const tables = (
      db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' ORDER BY name",
        )
        .all() as { name: string }[]
    ).map((t) => t.name);
    const out: Record<string, unknown[]> = {};
    for (const table of tables) {
      const columns = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
      const owner = table === 'users' ? 'id' : columns.includes('user_id') ? 'user_id' : null;
      if (owner)
        out[table] = db.prepare(`SELECT * FROM ${table} WHERE ${owner} = ? ORDER BY ${columns.includes('id') ? 'id' : owner}`).all(userId);
    }
    return out;
  } finally {
    db.close();
  }
}

/** medical_files rows, and whether each one's blob is in the local store. */
function filesIn(dir: string): { id: string; user_id: string; wrapped_key: string; blob: boolean }[] {
  const db = new SQLite(path.join(dir, 'kinchart.db'), { readonly: true, fileMustExist: true });
  try {
    const blobs = new Set(storedBlobs(dir).committed.map((f) => path.basename(f)));
    return (
      db.prepare('SELECT id, user_id, storage_key, wrapped_key FROM medical_files').all() as {
        id: string;
        user_id: string;
        storage_key: string;
        wrapped_key: string;
      }[]
    ).map((r) => ({ id: r.id, user_id: r.user_id, wrapped_key: r.wrapped_key, blob: blobs.has(r.storage_key) }));
  } finally {
    db.close();
  }
}

const opens = (key: Buffer, row: { id: string; user_id: string; wrapped_key: string }) => {
  try {
    unwrapDataKey(key, row.wrapped_key, fileAssociatedData(row.id, row.user_id));
    return true;
  } catch {
    return false;
  }
};

describe('backup, restore and key rotation of a SQLite deployment', () => {
  const source = newDir();
  let server: ServerProcess;
  const patient = new HttpClient(ORIGIN);
  let patientId = '';
  const uploaded: { url: string; content: Buffer }[] = [];
  let backupWithoutKey = '';
  let backupWithKey = '';
  const busyAckedBeforeBackup: string[] = [];

  beforeAll(async () => {
    // No MASTER_KEY: the server generates DATA_DIR/master.key, the default deployment.
    server = await start({ DATA_DIR: source });
    patientId = (await signUp(patient, server.url)).id;
    expect(
      (
        await patient.put(server.url, '/api/user/updateProfile', {
          name: 'Robin Backup',
          blood_type: 'A+',
          has_allergies: true,
          allergy_details: 'Latex',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await patient.post(server.url, '/api/user/emergency-contacts', {
          name: 'Sam',
          phone_number: '555-0100',
          is_primary: true,
          has_medical_power: true,
        })
      ).status,
    ).toBe(201);
    expect(
      (await patient.post(server.url, '/api/user/medications', { medication_name: 'Levothyroxine', dosage: '50 mcg', is_current: true }))
        .status,
    ).toBe(201);
    expect((await patient.post(server.url, '/api/user/wearable-qr', { pin: '4826' })).status).toBe(201);
    for (const [name, content] of [
      ['scan.pdf', Buffer.concat([fixture('record.pdf'), randomBytes(200_000)])],
      ['photo.png', fixture('pixel.png')],
      ['letter.docx', fixture('letter.docx')],
      ['gone.pdf', fixture('record.pdf')],
    ] as const) {
      const res = await patient.postMultipart(server.url, '/api/user/files', multipartBody([{ name: 'file', filename: name, content }]));
      expect(res.status).toBe(201);
      if (name === 'gone.pdf') expect((await patient.delete(server.url, `/api/user/files/${res.json().id as string}`)).status).toBe(200);
      else uploaded.push({ url: res.json().url, content });
    }
    // The server reads every file's text in the background (docs/decisions/0047): the backup below
    // compares rows, so it starts once the reading is over (and then carries the text too).
    for (let tries = 0; ; tries += 1) {
      const files = (await patient.get(server.url, '/api/user/files')).json<{ text_status: string }[]>();
      if (files.every((f) => f.text_status !== 'pending' && f.text_status !== 'processing')) break;
      if (tries >= 600) throw new Error(`the server had not read the files' text after 60 s: ${JSON.stringify(files)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it('backs up online while another patient keeps writing, and warns that the master key is not in it', { timeout: 90_000 }, async () => {
    const busy = new HttpClient(ORIGIN);
    await signUp(busy, server.url);
    let stop = false;
    const acked: string[] = [];
    let thirdAcked = () => {};
    const threeAcked = new Promise<void>((resolve) => (thirdAcked = resolve));
    const writer = (async () => {
      for (let n = 0; !stop; n += 1) {
        const appointment = await busy.post(server.url, '/api/user/appointments', {
          appointment_date: '2027-02-01',
          start_time: null,
          end_time: null,
          provider_name: `Dr. Busy ${n}`,
        });
        expect(appointment.status).toBe(201);
        acked.push(`Dr. Busy ${n}`);
        if (acked.length === 3) thirdAcked();
        const file = await busy.postMultipart(
          server.url,
          '/api/user/files',
          multipartBody([{ name: 'file', filename: `b${n}.pdf`, content: fixture('record.pdf') }]),
        );
        expect(file.status).toBe(201);
      }
    })();
    // The third acknowledged write, or the writer's failure, whichever comes first.
    await Promise.race([threeAcked, writer]);
    busyAckedBeforeBackup.push(...acked);
    backupWithoutKey = path.join(newDir(), 'backup');
    const result = await runCli(['backup', '--out', backupWithoutKey], { DATA_DIR: source });
    stop = true;
    await writer;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Backed up the database and \d+ file\(s\)/);
    expect(result.stderr).toMatch(/does not contain the master key/);
    expect(fs.readdirSync(backupWithoutKey).sort()).toEqual(['files', 'kinchart.db', 'manifest.json']);
    const manifest = JSON.parse(fs.readFileSync(path.join(backupWithoutKey, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 'kinchart-backup', version: 1, master_key_included: false });
    // The blobs in the backup are the ciphertext, never the patient's bytes.
    const pdfBlob = fs
      .readdirSync(path.join(backupWithoutKey, 'files'))
      .map((f) => fs.readFileSync(path.join(backupWithoutKey, 'files', f)));
    expect(pdfBlob.some((b) => b.includes(Buffer.from('%PDF')))).toBe(false);

    backupWithKey = path.join(newDir(), 'backup');
    const withKey = await runCli(['backup', '--out', backupWithKey, '--include-key'], { DATA_DIR: source });
    expect(withKey.code, withKey.stderr).toBe(0);
    expect(withKey.stderr).toBe('');
    expect(fs.readFileSync(path.join(backupWithKey, 'master.key'), 'utf8')).toBe(fs.readFileSync(path.join(source, 'master.key'), 'utf8'));
    expect((fs.statSync(path.join(backupWithKey, 'master.key')).mode & 0o777).toString(8)).toBe('600');
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });

  it(
    'restores into an empty DATA_DIR given the master key: rows identical, files open, the session still valid',
    { timeout: 90_000 },
    async () => {
      const target = newDir();
      const refused = await runCli(['restore', backupWithoutKey], { DATA_DIR: target });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/holds no master key/);
      const wrongKey = await runCli(['restore', backupWithoutKey], { DATA_DIR: target, MASTER_KEY: randomBytes(32).toString('base64') });
      expect(wrongKey.code).toBe(1);
      expect(wrongKey.stderr).toMatch(/does not open the files/);
      expect(fs.readdirSync(target)).toEqual([]);

      const key = fs.readFileSync(path.join(source, 'master.key'), 'utf8').trim();
      const restored = await runCli(['restore', backupWithoutKey], { DATA_DIR: target, MASTER_KEY: key });
      expect(restored.code, restored.stderr).toBe(0);
      expect(fs.existsSync(path.join(target, 'master.key'))).toBe(false);
      const again = await runCli(['restore', backupWithoutKey], { DATA_DIR: target, MASTER_KEY: key });
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/already exists/);

      // The patient who did nothing after the backup: every row of theirs, identical.
      expect(rowsOf(path.join(target, 'kinchart.db'), patientId)).toEqual(rowsOf(path.join(source, 'kinchart.db'), patientId));
      // Every record in the backup has its blob; nothing else came along.
      const rows = filesIn(target);
      expect(rows.every((r) => r.blob)).toBe(true);
      expect(storedBlobs(target).committed).toHaveLength(rows.length);
      // The busy patient's writes acknowledged before the backup began are in it.
      const db = new SQLite(path.join(target, 'kinchart.db'), { readonly: true });
      const providers = new Set(
        (db.prepare('SELECT provider_name FROM appointments').all() as { provider_name: string }[]).map((r) => r.provider_name),
      );
      db.close();
      for (const name of busyAckedBeforeBackup) expect(providers.has(name), name).toBe(true);

      const restoredServer = await start({ DATA_DIR: target, MASTER_KEY: key });
      expect((await patient.get(restoredServer.url, '/api/auth/check-auth')).status).toBe(200);
      expect((await patient.get(restoredServer.url, '/api/user/getPatientProfile')).json()).toMatchObject({
        name: 'Robin Backup',
        allergy_details: 'Latex',
      });
      const listed = (await patient.get(restoredServer.url, '/api/user/files')).json<unknown[]>();
      expect(listed).toHaveLength(3);
      for (const u of uploaded) {
        const res = await patient.get(restoredServer.url, u.url);
        expect(res.status).toBe(200);
        expect(res.body.equals(u.content)).toBe(true);
      }
      expect(await restoredServer.stop()).toEqual({ code: 0, signal: null });

      // A record whose blob is missing in the deployment itself is backed up as it is, and reported.
      const [lost] = storedBlobs(target).committed;
      fs.rmSync(path.join(target, 'files', lost!));
      const partial = await runCli(['backup', '--out', path.join(newDir(), 'b')], { DATA_DIR: target, MASTER_KEY: key });
      expect(partial.code, partial.stderr).toBe(0);
      expect(partial.stderr).toMatch(/1 file record\(s\) have no stored file in the live deployment either/);
    },
  );

  it(
    "a backup made before migration 0007 restores, and its files and appointments then belong to their owner's own profile",
    { timeout: 90_000 },
    async () => {
      const key = fs.readFileSync(path.join(source, 'master.key'), 'utf8').trim();
      // A deployment as it stood before 0007: this backup's data, migrated back to 0006, with the
      // files' person unset as every path wrote them then.
      const old = newDir();
      expect((await runCli(['restore', backupWithoutKey], { DATA_DIR: old, MASTER_KEY: key })).code).toBe(0);
      const handle = createDatabase({ sqliteFile: path.join(old, 'kinchart.db') });
      await migrateTo(handle.db, '0006-drop-last-access-notified');
      await handle.db.updateTable('medical_files').set({ profile_id: null }).execute();
      await handle.db.destroy();
      const oldBackup = path.join(newDir(), 'backup');
      const made = await runCli(['backup', '--out', oldBackup], { DATA_DIR: old, MASTER_KEY: key });
      expect(made.code, made.stderr).toBe(0);

      const target = newDir();
      const restored = await runCli(['restore', oldBackup], { DATA_DIR: target, MASTER_KEY: key });
      expect(restored.code, restored.stderr).toBe(0);
      const before = new SQLite(path.join(target, 'kinchart.db'), { readonly: true });
      const appointmentColumns = (before.prepare('PRAGMA table_info(appointments)').all() as { name: string }[]).map((c) => c.name);
      const counts = before
        .prepare('SELECT (SELECT count(*) FROM appointments) AS appointments, (SELECT count(*) FROM medical_files) AS files')
        .get() as { appointments: number; files: number };
      before.close();
      expect(appointmentColumns).not.toContain('profile_id');
      expect(counts.files).toBeGreaterThanOrEqual(3);
      expect(counts.appointments).toBeGreaterThan(0);

      // The server migrates at start; every row then belongs to its owner's own profile.
      const restoredServer = await start({ DATA_DIR: target, MASTER_KEY: key });
      const after = new SQLite(path.join(target, 'kinchart.db'), { readonly: true });
      const unowned = after
        .prepare(
          `SELECT (SELECT count(*) FROM appointments a WHERE a.profile_id IS NULL OR a.profile_id <> (SELECT p.id FROM profiles p WHERE p.user_id = a.user_id AND p.is_self = 1)) +
                (SELECT count(*) FROM medical_files f WHERE f.profile_id IS NULL OR f.profile_id <> (SELECT p.id FROM profiles p WHERE p.user_id = f.user_id AND p.is_self = 1)) AS n,
                (SELECT count(*) FROM appointments) AS appointments`,
        )
        .get() as { n: number; appointments: number };
      const selfId = (after.prepare('SELECT id FROM profiles WHERE user_id = ? AND is_self = 1').get(patientId) as { id: string }).id;
      after.close();
      expect(unowned.n).toBe(0);
      expect(unowned.appointments).toBe(counts.appointments);
      const listed = (await patient.get(restoredServer.url, '/api/user/files')).json<{ person_id: string; url: string }[]>();
      expect(listed).toHaveLength(3);
      expect(listed.every((f) => f.person_id === selfId)).toBe(true);
      for (const u of uploaded) expect((await patient.get(restoredServer.url, u.url)).body.equals(u.content)).toBe(true);
      expect(await restoredServer.stop()).toEqual({ code: 0, signal: null });
    },
  );

  it(
    'restores a backup made with --include-key without MASTER_KEY; rotate-key then re-wraps every key and replaces master.key',
    { timeout: 90_000 },
    async () => {
      const target = newDir();
      const restored = await runCli(['restore', backupWithKey], { DATA_DIR: target });
      expect(restored.code, restored.stderr).toBe(0);
      const oldKeyText = fs.readFileSync(path.join(target, 'master.key'), 'utf8');
      expect(oldKeyText).toBe(fs.readFileSync(path.join(source, 'master.key'), 'utf8'));
      const oldKey = Buffer.from(oldKeyText.trim(), 'base64');
      const before = filesIn(target);
      const blobsBefore = storedBlobs(target).committed.map((f) => fs.readFileSync(path.join(target, 'files', f)));

      const newKey = randomBytes(32);
      const keyFile = path.join(newDir(), 'new.key');
      fs.writeFileSync(keyFile, `${newKey.toString('base64')}\n`, { mode: 0o600 });
      const rotated = await runCli(['rotate-key', '--new-key-file', keyFile], { DATA_DIR: target });
      expect(rotated.code, rotated.stderr).toBe(0);
      expect(rotated.stdout).toContain(`Re-wrapped ${before.length} data key(s)`);
      expect(rotated.stderr).toMatch(/Backups made before this rotation still need the old key/);
      expect(fs.readFileSync(path.join(target, 'master.key'), 'utf8').trim()).toBe(newKey.toString('base64'));
      expect((fs.statSync(path.join(target, 'master.key')).mode & 0o777).toString(8)).toBe('600');
      expect(fs.existsSync(path.join(target, 'master.key.next'))).toBe(false);

      const after = filesIn(target);
      expect(after.map((r) => r.id).sort()).toEqual(before.map((r) => r.id).sort());
      for (const row of after) {
        expect(opens(newKey, row)).toBe(true);
        expect(opens(oldKey, row)).toBe(false);
      }
      // No file was re-encrypted.
      expect(storedBlobs(target).committed.map((f) => fs.readFileSync(path.join(target, 'files', f)))).toEqual(blobsBefore);

      const server = await start({ DATA_DIR: target });
      for (const u of uploaded) {
        const res = await patient.get(server.url, u.url);
        expect(res.status).toBe(200);
        expect(res.body.equals(u.content)).toBe(true);
      }
      expect(await server.stop()).toEqual({ code: 0, signal: null });

      // With MASTER_KEY in the environment, the command re-wraps and says to change it everywhere.
      const third = randomBytes(32).toString('base64');
      const envRotation = await runCli(['rotate-key', '--new-key', third], { DATA_DIR: target, MASTER_KEY: newKey.toString('base64') });
      expect(envRotation.code, envRotation.stderr).toBe(0);
      expect(envRotation.stderr).toMatch(/Set MASTER_KEY to the new key on every instance/);
      expect(fs.readFileSync(path.join(target, 'master.key'), 'utf8').trim()).toBe(newKey.toString('base64'));
      for (const row of filesIn(target)) expect(opens(Buffer.from(third, 'base64'), row)).toBe(true);

      const bad = await runCli(['rotate-key', '--new-key', 'c2hvcnQ='], { DATA_DIR: target, MASTER_KEY: third });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/32-byte key/);

      // A run interrupted after its commit, before master.key was replaced: the keys are under the
      // new key (here `third`), master.key still holds the old one, master.key.next the new one.
      const next = path.join(target, 'master.key.next');
      fs.writeFileSync(next, `${third}\n`, { mode: 0o600 });
      const otherKey = await runCli(['rotate-key', '--new-key', randomBytes(32).toString('base64')], { DATA_DIR: target });
      expect(otherKey.code).toBe(1);
      expect(otherKey.stderr).toMatch(/left from an interrupted rotation/);
      const finished = await runCli(['rotate-key', '--new-key-file', next], { DATA_DIR: target });
      expect(finished.code, finished.stderr).toBe(0);
      expect(finished.stdout).toContain(`Re-wrapped 0 data key(s) under the new master key (${before.length} already were)`);
      expect(fs.readFileSync(path.join(target, 'master.key'), 'utf8').trim()).toBe(third);
      expect(fs.existsSync(next)).toBe(false);
    },
  );

  it('backup and restore refuse a PostgreSQL deployment and point to pg_dump', async () => {
    const env = { DATA_DIR: newDir(), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    for (const args of [['backup'], ['restore', backupWithKey]]) {
      const res = await runCli(args, env);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/pg_dump/);
    }
  });
});
