// The 10,000-family data set for `npm run bench scale` (bench/scale.mjs; docs/decisions/0041).
//
// Seeds N accounts into a SQLite file and, when given, a PostgreSQL database — the same rows into
// both, generated once — through the product's own schema (migrations, Kysely's table types) in
// batched inserts, one transaction per batch of accounts. Each account: a profile (2 emergency
// contacts, 2 providers), 3 family members, 20 small files, 10 appointments, 10 medications, 20 lab
// results and 10 notifications, spread over its four people. The files are real blobs: 1–4 KB of
// PDF sealed with the product's envelope under DATA_DIR's master key, so downloads and the export
// open them. Every account has the same argon2id password hash (hashed once with the product's
// parameters): a login verifies it as it would any other.
//
// Usage (after the bench has bundled it): node dist/scale-seed.js <json options>
//   { accounts, dataDir, sqliteFile, databaseUrl?, password, manifestAccounts, manifestFile }
// Writes a manifest of the first `manifestAccounts` accounts (email, user id, people, file ids) and
// prints timings as JSON.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import { createDatabase, migrateToLatest } from '../src/db/database';
import type { Db } from '../src/db/database';
import type { Database } from '../src/db/schema';
import { hashSecret } from '../src/lib/passwords';
import { blobAssociatedData, encryptStream, fileAssociatedData, newDataKey, wrapDataKey } from '../src/storage/envelope';
import { loadMasterKey } from '../src/storage/master-key';

interface Options {
  accounts: number;
  dataDir: string;
  sqliteFile: string;
  databaseUrl?: string;
  password: string;
  manifestAccounts: number;
  manifestFile: string;
}

export interface SeededAccount {
  email: string;
  userId: string;
  selfId: string;
  memberIds: string[];
  fileIds: string[];
}

type Rows = { [T in keyof Database]?: Insertable<Database[T]>[] };

/** Accounts per transaction; parameters per INSERT (SQLite takes at most 32,766, PostgreSQL 65,535). */
const ACCOUNTS_PER_BATCH = 250;
const PARAMETERS_PER_INSERT = 30_000;
/** Parents before children (foreign keys). */
const TABLE_ORDER: (keyof Database)[] = [
  'users',
  'profiles',
  'emergency_contacts',
  'healthcare_providers',
  'medications',
  'medical_files',
  'appointments',
  'lab_results',
  'notifications',
];

/** Every column of a profile row: a multi-row INSERT names the same columns for every row. */
const PROFILE_BLANK = {
  relationship: null,
  phone_number: null,
  address: null,
  email: null,
  blood_type: null,
  height: null,
  weight: null,
  primary_language: null,
  religious_restrictions: null,
  organ_donor: 0,
  advance_directives: 0,
  living_will: 0,
  has_vision_impairment: 0,
  has_hearing_impairment: 0,
  has_allergies: 0,
  allergy_details: null,
  has_chronic_conditions: 0,
  chronic_condition_details: null,
  has_bleeding_disorders: 0,
  bleeding_disorder_details: null,
  has_previous_surgeries: 0,
  surgery_details: null,
  has_mobility_issues: 0,
  mobility_details: null,
  had_anesthesia_reactions: 0,
  anesthesia_reaction_details: null,
} satisfies Partial<Insertable<Database['profiles']>>;

const DAY_MS = 86_400_000;
const BASE = Date.UTC(2026, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();
const day = (ms: number) => iso(ms).slice(0, 10);

/** A small, well-formed PDF of `size` bytes (the product sniffs PDFs by their header). */
function pdfOf(size: number, label: string): Buffer {
  const head = `%PDF-1.4\n% ${label}\n1 0 obj<<>>endobj\n`;
  const tail = 'trailer<<>>\n%%EOF\n';
  const pad = Math.max(0, size - head.length - tail.length);
  return Buffer.from(head + `%${'x'.repeat(78)}\n`.repeat(Math.ceil(pad / 80)).slice(0, pad) + tail);
}

async function seal(plain: Buffer, fileId: string, ownerId: string, masterKey: Buffer) {
  const dataKey = newDataKey();
  const parts: Buffer[] = [];
  async function* source() {
    yield plain;
  }
  for await (const part of encryptStream(source(), dataKey, blobAssociatedData(fileId))) parts.push(part);
  return { blob: Buffer.concat(parts), wrappedKey: wrapDataKey(masterKey, dataKey, fileAssociatedData(fileId, ownerId)) };
}

/** One account's rows; its blobs are written to `filesDir` as the local blob store lays them out. */
async function account(i: number, passwordHash: string, masterKey: Buffer, filesDir: string, rows: Rows): Promise<SeededAccount> {
  const push = <T extends keyof Database>(table: T, row: Insertable<Database[T]>) => {
    const list = (rows[table] ??= []) as Insertable<Database[T]>[];
    list.push(row);
  };
  const userId = randomUUID();
  const email = `scale${i}@bench.example`;
  const joined = BASE - (i % 365) * DAY_MS;
  const at = iso(joined);
  push('users', {
    id: userId,
    email,
    username: `Scale ${i}`,
    password_hash: passwordHash,
    email_verified_at: at,
    created_at: at,
    updated_at: at,
  });

  const selfId = randomUUID();
  push('profiles', {
    ...PROFILE_BLANK,
    id: selfId,
    user_id: userId,
    is_self: 1,
    is_pet: 0,
    name: `Scale Patient ${i}`,
    date_of_birth: `19${String(50 + (i % 50)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10}`,
    email,
    phone_number: `555-${String(1000 + (i % 9000))}`,
    blood_type: ['A+', 'O-', 'B+', 'AB+'][i % 4] ?? null,
    height: 170,
    weight: 70,
    has_allergies: 1,
    allergy_details: 'Penicillin',
    has_chronic_conditions: i % 3 === 0 ? 1 : 0,
    chronic_condition_details: i % 3 === 0 ? 'Asthma' : null,
    created_at: at,
    updated_at: at,
  });
  const members = [
    { relationship: 'Spouse', name: `Scale Spouse ${i}`, dob: '1982-04-02', pet: 0 },
    { relationship: 'Child', name: `Scale Child ${i}`, dob: '2015-09-12', pet: 0 },
    { relationship: 'Child', name: `Scale Junior ${i}`, dob: '2019-01-30', pet: 0 },
  ];
  const memberIds: string[] = [];
  for (const m of members) {
    const id = randomUUID();
    memberIds.push(id);
    push('profiles', {
      ...PROFILE_BLANK,
      id,
      user_id: userId,
      is_self: 0,
      is_pet: m.pet,
      relationship: m.relationship,
      name: m.name,
      date_of_birth: m.dob,
      created_at: at,
      updated_at: at,
    });
  }
  /** Half of each list is the account holder's own, the rest goes round the family. */
  const personOf = (n: number) => (n % 2 === 0 ? selfId : (memberIds[(n >> 1) % memberIds.length] ?? selfId));

  for (let n = 0; n < 2; n += 1) {
    push('emergency_contacts', {
      id: randomUUID(),
      user_id: userId,
      profile_id: selfId,
      name: `Contact ${n}`,
      relationship: 'Friend',
      phone_number: `555-01${n}0`,
      is_primary: n === 0 ? 1 : 0,
      position: n,
      created_at: at,
    });
    push('healthcare_providers', {
      id: randomUUID(),
      user_id: userId,
      profile_id: selfId,
      provider_name: `Dr. Scale ${n}`,
      specialty: 'GP',
      phone_number: `555-02${n}0`,
      is_primary: n === 0 ? 1 : 0,
      position: n,
      created_at: at,
    });
  }
  for (let n = 0; n < 10; n += 1) {
    push('medications', {
      id: randomUUID(),
      user_id: userId,
      profile_id: personOf(n),
      medication_name: `Medication ${n}`,
      dosage: `${5 * (n + 1)} mg`,
      frequency: 'daily',
      purpose: 'bench',
      start_date: day(joined + n * DAY_MS),
      is_current: n < 7 ? 1 : 0,
      position: n,
      created_at: at,
      updated_at: at,
    });
  }

  const fileIds: string[] = [];
  for (let n = 0; n < 20; n += 1) {
    const id = randomUUID();
    fileIds.push(id);
    const plain = pdfOf(1024 + ((i * 20 + n) % 3072), `scale ${i} record ${n}`);
    const { blob, wrappedKey } = await seal(plain, id, userId, masterKey);
    const dir = path.join(filesDir, id.slice(0, 2).toLowerCase());
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(dir, id), blob, { mode: 0o600 });
    const when = joined + (n + 1) * 7 * DAY_MS;
    push('medical_files', {
      id,
      user_id: userId,
      profile_id: personOf(n),
      display_name: `Record ${n}`,
      original_name: `record-${n}.pdf`,
      file_type: 'application/pdf',
      size: plain.length,
      storage_key: id,
      wrapped_key: wrappedKey,
      record_date: day(when),
      provider_name: 'Dr. Scale',
      visit_location: 'Clinic',
      visit_reason: 'Checkup',
      created_at: iso(when),
      updated_at: iso(when),
    });
  }
  for (let n = 0; n < 10; n += 1) {
    const date = day(BASE + (n * 30 - 120) * DAY_MS + (i % 28) * DAY_MS);
    push('appointments', {
      id: randomUUID(),
      user_id: userId,
      uid: `${randomUUID()}@kinchart`,
      profile_id: personOf(n),
      appointment_date: date,
      start_time: `${date}T09:00`,
      end_time: `${date}T09:30`,
      provider_name: `Dr. Scale ${n % 2}`,
      reason_for_visit: 'Follow-up',
      location: 'Clinic',
      created_at: at,
    });
  }
  for (let n = 0; n < 20; n += 1) {
    const value = 4 + (n % 5);
    push('lab_results', {
      id: randomUUID(),
      user_id: userId,
      profile_id: personOf(n),
      name: ['Glucose', 'Potassium', 'Hemoglobin', 'Cholesterol'][n % 4] ?? 'Glucose',
      category: 'laboratory',
      loinc_code: ['2345-7', '2823-3', '718-7', '2093-3'][n % 4] ?? null,
      value,
      unit: 'mmol/L',
      reference_low: 3.5,
      reference_high: 7.5,
      interpretation: value > 7.5 ? 'H' : 'N',
      date: day(joined + n * 14 * DAY_MS),
      created_at: at,
      updated_at: at,
    });
  }
  for (let n = 0; n < 10; n += 1) {
    push('notifications', {
      id: randomUUID(),
      user_id: userId,
      type: 'info',
      level: 'info',
      title: n % 2 === 0 ? 'Appointment reminder' : 'Shared records opened',
      data: JSON.stringify({ message: `Notice ${n} for the bench.` }),
      is_read: n < 6 ? 1 : 0,
      created_at: iso(joined + n * DAY_MS),
    });
  }
  return { email, userId, selfId, memberIds, fileIds };
}

async function insertAll(db: Db, rows: Rows): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of TABLE_ORDER) {
      const list = rows[table] ?? [];
      const perInsert = Math.floor(PARAMETERS_PER_INSERT / Object.keys(list[0] ?? { id: 1 }).length);
      for (let from = 0; from < list.length; from += perInsert) {
        await trx
          .insertInto(table)
          .values(list.slice(from, from + perInsert))
          .execute();
      }
    }
  });
}

async function main(options: Options): Promise<void> {
  const t0 = performance.now();
  const masterKey = loadMasterKey({ masterKey: undefined, dataDir: options.dataDir });
  const filesDir = path.join(options.dataDir, 'files');
  const targets = [createDatabase({ sqliteFile: options.sqliteFile })];
  if (options.databaseUrl) targets.push(createDatabase({ databaseUrl: options.databaseUrl, sqliteFile: '' }));
  for (const t of targets) await migrateToLatest(t.db);
  const passwordHash = await hashSecret(options.password);

  const seconds: Record<string, number> = { generate: 0, sqlite: 0, postgres: 0 };
  const manifest: SeededAccount[] = [];
  let pending: Promise<void>[] = [];
  for (let from = 0; from < options.accounts; from += ACCOUNTS_PER_BATCH) {
    const t = performance.now();
    const rows: Rows = {};
    for (let i = from; i < Math.min(options.accounts, from + ACCOUNTS_PER_BATCH); i += 1) {
      const seeded = await account(i, passwordHash, masterKey, filesDir, rows);
      if (i < options.manifestAccounts) manifest.push(seeded);
    }
    seconds.generate = (seconds.generate ?? 0) + (performance.now() - t) / 1000;
    // Each database takes the batch while the next one is generated (PostgreSQL's round trips
    // overlap the sealing and SQLite's synchronous inserts).
    await Promise.all(pending);
    pending = targets.map(async (target) => {
      const start = performance.now();
      await insertAll(target.db, rows);
      seconds[target.dialect] = (seconds[target.dialect] ?? 0) + (performance.now() - start) / 1000;
    });
  }
  await Promise.all(pending);
  // Fresh planner statistics, as a deployment's autovacuum / `ANALYZE` would have them.
  for (const t of targets) {
    const start = performance.now();
    if (t.dialect === 'postgres') await sql`analyze`.execute(t.db);
    seconds[`${t.dialect}Analyze`] = (performance.now() - start) / 1000;
    await t.db.destroy();
  }
  fs.writeFileSync(options.manifestFile, JSON.stringify(manifest));
  console.log(JSON.stringify({ seconds: { ...seconds, total: (performance.now() - t0) / 1000 } }));
}

main(JSON.parse(process.argv[2] ?? '{}') as Options).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
