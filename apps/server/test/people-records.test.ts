// DESIGN §4, §11: every record file and appointment belongs to a person, and the people who care
// for that person keep it with them — uploads and appointments for a person, the person filters,
// the owner's quota, the member routes on a shared account's own profile, deleting a member,
// emergency notices for managers, the owner's audit trail, file links, export and import.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, signedInUser } from './helpers';
import { fixture, storedBlobs, upload } from './files-helpers';
import { insertMember, selfProfileId } from './factories';
import { daysAgo, insertShare } from './share-factories';
import { exportZip, importFile, makeZip, readZip } from './export-helpers';
import { testScheduler } from './reminder-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;
const PDF = fixture('record.pdf');
const PNG = fixture('pixel.png');

/** An owner with a child, shared with a second account as `role`. */
async function family(role: 'manager' | 'editor' | 'viewer' = 'editor') {
  const owner = await signedInUser(t.app, { username: 'Olivia Owner' });
  const holder = await signedInUser(t.app, { username: 'Harry Holder' });
  const child = await insertMember(t.database.db, owner.id, { name: 'Mia Rivera' });
  const shareId = await insertShare(t.database.db, { profileId: child, ownerId: owner.id, holderId: holder.id, role });
  return { owner, holder, child, shareId, ownerSelf: await selfProfileId(t.database.db, owner.id) };
}

const fileFor = (
  client: TestClient,
  personId: string | undefined,
  file = { filename: 'letter.pdf', content: PDF, contentType: 'application/pdf' },
  url = '/api/user/files',
) =>
  upload(client, url, [
    ...(personId === undefined ? [] : [{ name: 'personId', value: personId }]),
    { name: 'file', ...file },
    { name: 'customName', value: 'Letter' },
  ]);

const appointment = (extra: Record<string, unknown> = {}) => ({
  appointment_date: '2027-03-04',
  start_time: '2027-03-04T10:00',
  end_time: '2027-03-04T10:30',
  provider_name: 'Dr Lee',
  reason_for_visit: 'Check-up',
  ...extra,
});

async function storageOf(user: User): Promise<number> {
  return (await user.client.get('/api/user/storage')).json().used_bytes as number;
}

describe('record files for a person', () => {
  it("an editor uploads a file for a shared child: it is the child's, held and counted by the child's owner", async () => {
    const { owner, holder, child } = await family('editor');
    const res = await fileFor(holder.client, child);
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json();
    expect(file).toMatchObject({ name: 'Letter', person_id: child, person_name: 'Mia Rivera' });
    const row = await t.database.db
      .selectFrom('medical_files')
      .select(['user_id', 'profile_id'])
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ user_id: owner.id, profile_id: child });
    // The owner's quota, not the uploader's (DESIGN §5).
    expect(await storageOf(owner)).toBe(PDF.length);
    expect(await storageOf(holder)).toBe(0);
    // Sealed for the owner: both read the same bytes.
    expect((await owner.client.get(`/api/user/files/${file.id}/content`)).rawPayload.equals(PDF)).toBe(true);
    expect((await holder.client.get(`/api/user/files/${file.id}/content`)).rawPayload.equals(PDF)).toBe(true);
    // The navigation bar's quick upload takes personId too.
    const quick = await fileFor(holder.client, child, { filename: 'scan.png', content: PNG, contentType: 'image/png' }, '/api/user/upload');
    expect(quick.statusCode).toBe(201);
    // Named after the file without its extension (issue 30 item 29), the file's own name kept.
    expect(quick.json()).toMatchObject({ person_id: child, name: 'scan', originalname: 'scan.png' });
  });

  it("without a personId (the SPEC's call) a file is the uploader's own; an empty personId is the same", async () => {
    const { owner, ownerSelf } = await family();
    for (const personId of [undefined, '']) {
      const res = await fileFor(owner.client, personId);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ person_id: ownerSelf, person_name: null });
    }
  });

  it("a personId sent after the file files it for that person, sealed for the person's owner (DESIGN §6: fields in any order)", async () => {
    const { owner, holder, child } = await family('editor');
    const res = await upload(holder.client, '/api/user/files', [
      { name: 'file', filename: 'letter.pdf', content: PDF, contentType: 'application/pdf' },
      { name: 'customName', value: 'Late person' },
      { name: 'personId', value: child },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Late person', person_id: child, person_name: 'Mia Rivera' });
    const row = await t.database.db
      .selectFrom('medical_files')
      .select(['user_id', 'profile_id'])
      .where('id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ user_id: owner.id, profile_id: child });
    expect(await storageOf(owner)).toBe(PDF.length);
    expect(await storageOf(holder)).toBe(0);
    // Both read the very bytes: the key was wrapped for the owner once the person was known.
    expect((await owner.client.get(`/api/user/files/${res.json().id as string}/content`)).rawPayload.equals(PDF)).toBe(true);
    expect((await holder.client.get(`/api/user/files/${res.json().id as string}/content`)).rawPayload.equals(PDF)).toBe(true);
    // The quick upload too.
    const quick = await upload(holder.client, '/api/user/upload', [
      { name: 'file', filename: 'scan.png', content: PNG, contentType: 'image/png' },
      { name: 'personId', value: child },
    ]);
    expect(quick.statusCode).toBe(201);
    expect(quick.json()).toMatchObject({ person_id: child });
  });

  it('a personId after the file that the uploader may not write to is refused like one before it, and nothing is kept', async () => {
    const { owner, holder, child } = await family('viewer');
    const stranger = await signedInUser(t.app);
    const before = storedBlobs(t.dataDir);
    const late = (client: TestClient) =>
      upload(client, '/api/user/files', [
        { name: 'file', filename: 'letter.pdf', content: PDF, contentType: 'application/pdf' },
        { name: 'personId', value: child },
      ]);
    expect((await late(holder.client)).statusCode).toBe(403);
    expect((await late(stranger.client)).statusCode).toBe(404);
    expect((await owner.client.get('/api/user/files')).json()).toEqual([]);
    const after = storedBlobs(t.dataDir);
    expect(after.committed.length).toBe(before.committed.length);
    expect(after.temp).toEqual([]);
  });

  it("a viewer cannot upload for the person (403) and a stranger's personId is a 404; nothing is stored", async () => {
    const { owner, holder, child } = await family('viewer');
    const stranger = await signedInUser(t.app);
    expect((await fileFor(holder.client, child)).statusCode).toBe(403);
    const refused = await fileFor(stranger.client, child);
    expect(refused.statusCode).toBe(404);
    expect((await fileFor(stranger.client, 'no-such-person')).json()).toEqual(refused.json());
    expect((await owner.client.get('/api/user/files')).json()).toEqual([]);
    expect(await storageOf(owner)).toBe(0);
  });

  it("GET /api/user/files lists every visible person's files with their names; ?person= keeps one person's", async () => {
    const { owner, holder, child, ownerSelf } = await family('viewer');
    const own = (await fileFor(owner.client, undefined)).json();
    const childs = (await fileFor(owner.client, child)).json();
    const holderOwn = (await fileFor(holder.client, undefined)).json();

    const ownerList = (await owner.client.get('/api/user/files')).json();
    expect(ownerList.map((f: { id: string }) => f.id)).toEqual([childs.id, own.id]);
    const holderList = (await holder.client.get('/api/user/files')).json();
    expect(holderList.map((f: { id: string }) => f.id)).toEqual([holderOwn.id, childs.id]);
    expect(holderList[1]).toMatchObject({ person_id: child, person_name: 'Mia Rivera' });

    expect((await owner.client.get(`/api/user/files?person=${child}`)).json().map((f: { id: string }) => f.id)).toEqual([childs.id]);
    expect((await owner.client.get(`/api/user/files?person=${ownerSelf}`)).json().map((f: { id: string }) => f.id)).toEqual([own.id]);
    expect((await holder.client.get(`/api/user/files?person=${child}`)).json().map((f: { id: string }) => f.id)).toEqual([childs.id]);
    // Someone the user cannot see is the same 404 as no one.
    const hidden = await holder.client.get(`/api/user/files?person=${ownerSelf}`);
    expect(hidden.statusCode).toBe(404);
    expect((await holder.client.get('/api/user/files?person=nobody')).json()).toEqual(hidden.json());
  });

  it("a revoked or expired share takes the person's files out of the holder's list and out of reach at once", async () => {
    const { owner, holder, child, shareId } = await family('editor');
    const file = (await fileFor(owner.client, child)).json();
    expect((await holder.client.get('/api/user/files')).json()).toHaveLength(1);
    await t.database.db
      .updateTable('person_shares')
      .set({ ends_at: daysAgo(0.001) })
      .where('id', '=', shareId)
      .execute();
    expect((await holder.client.get('/api/user/files')).json()).toEqual([]);
    expect((await holder.client.get(`/api/user/files/${file.id}/content`)).statusCode).toBe(404);
    await t.database.db
      .updateTable('person_shares')
      .set({ ends_at: null, revoked_at: new Date().toISOString() })
      .where('id', '=', shareId)
      .execute();
    expect((await holder.client.delete(`/api/user/files/${file.id}`)).statusCode).toBe(404);
    expect((await owner.client.get('/api/user/files')).json()).toHaveLength(1);
  });

  it("a manager's link opens the person's file for visitors only while the manager's share lasts", async () => {
    const { owner, holder, child, shareId } = await family('manager');
    const file = (await fileFor(owner.client, child)).json();
    const link = await holder.client.post('/api/user/files/share-links', { fileIds: [file.id] });
    expect(link.statusCode).toBe(201);
    const token = new URL(link.json().url as string).pathname.split('/').pop() ?? '';
    const visitor = new TestClient(t.app);
    const opened = await visitor.get(`/api/shared/${token}`);
    expect(opened.json().files).toEqual([expect.objectContaining({ id: file.id })]);
    expect((await visitor.get(`/api/shared/${token}/files/${file.id}`)).rawPayload.equals(PDF)).toBe(true);
    // The share ends: the link no longer hands the file out.
    await t.database.db.updateTable('person_shares').set({ revoked_at: new Date().toISOString() }).where('id', '=', shareId).execute();
    expect((await visitor.get(`/api/shared/${token}`)).json().files).toEqual([]);
    expect((await visitor.get(`/api/shared/${token}/files/${file.id}`)).statusCode).toBe(404);
  });
});

describe('appointments for a person', () => {
  it("an editor adds an appointment for a shared child; both see it with the child's name; ?person= filters", async () => {
    const { owner, holder, child, ownerSelf } = await family('editor');
    const made = await holder.client.post('/api/user/appointments', appointment({ person_id: child }));
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ person_id: child, person_name: 'Mia Rivera', message: 'Appointment added successfully!' });
    const row = await t.database.db
      .selectFrom('appointments')
      .select(['user_id', 'profile_id'])
      .where('id', '=', made.json().id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ user_id: owner.id, profile_id: child });

    const mine = await owner.client.post('/api/user/appointments', appointment({ provider_name: 'Dr Own' }));
    expect(mine.json()).toMatchObject({ person_id: ownerSelf });
    expect(
      (await owner.client.get('/api/user/appointments'))
        .json()
        .map((a: { provider_name: string }) => a.provider_name)
        .sort(),
    ).toEqual(['Dr Lee', 'Dr Own']);
    expect((await owner.client.get(`/api/user/appointments?person=${child}`)).json().map((a: { id: string }) => a.id)).toEqual([
      made.json().id,
    ]);
    expect((await holder.client.get('/api/user/appointments')).json().map((a: { id: string }) => a.id)).toEqual([made.json().id]);
    expect((await holder.client.get(`/api/user/appointments?person=${ownerSelf}`)).statusCode).toBe(404);
  });

  it("the calendar file keeps SPEC §3's title for your own and names the person for anyone else", async () => {
    const { owner, holder, child } = await family('viewer');
    await owner.client.post('/api/user/appointments', appointment({ provider_name: 'Dr Own', reason_for_visit: 'Flu jab' }));
    await owner.client.post('/api/user/appointments', appointment({ person_id: child }));
    const own = (await owner.client.get('/api/user/appointments.ics')).body;
    expect(own).toContain('SUMMARY:Dr Own - Flu jab\r\n');
    expect(own).toContain('SUMMARY:Mia Rivera: Dr Lee - Check-up\r\n');
    const theirs = (await holder.client.get('/api/user/appointments.ics')).body;
    expect(theirs).toContain('SUMMARY:Mia Rivera: Dr Lee - Check-up\r\n');
    expect(theirs).not.toContain('Dr Own');
  });

  it('an edit may move an appointment to another person the editor may edit, never to one they only view', async () => {
    const { owner, holder, child, ownerSelf } = await family('editor');
    const other = await insertMember(t.database.db, owner.id, { name: 'Leo Rivera' });
    await insertShare(t.database.db, { profileId: other, ownerId: owner.id, holderId: holder.id, role: 'viewer' });
    const made = (await owner.client.post('/api/user/appointments', appointment())).json();
    expect(made.person_id).toBe(ownerSelf);
    const moved = await owner.client.put(`/api/user/appointments/${made.id}`, appointment({ person_id: child }));
    expect(moved.json()).toMatchObject({ person_id: child, person_name: 'Mia Rivera' });
    expect((await holder.client.put(`/api/user/appointments/${made.id}`, appointment({ person_id: other }))).statusCode).toBe(403);
    expect((await holder.client.delete(`/api/user/appointments/${made.id}`)).statusCode).toBe(200);
  });

  it("a reminder for a family member's appointment reaches the owner and names the member", async () => {
    const { owner, holder, child } = await family('editor');
    const soon = new Date(Date.now() + 3 * 3_600_000);
    const date = soon.toISOString().slice(0, 10);
    const start = `${soon.toISOString().slice(0, 19)}Z`;
    await holder.client.post('/api/user/appointments', {
      appointment_date: date,
      start_time: start,
      provider_name: 'Dr Soon',
      person_id: child,
    });
    // Two hours before its start (the default lead times are a day and two hours).
    await testScheduler(t).tick(new Date(Date.parse(start) - 2 * 3_600_000));
    const notes = (await owner.client.get('/api/user/notifications')).json();
    expect(notes.map((n: { data: { message: string } }) => n.data.message)).toContainEqual(
      "Reminder: Mia Rivera's appointment with Dr Soon is in 2 hours.",
    );
    expect((await holder.client.get('/api/user/notifications')).json()).toEqual([]);
  });
});

describe('the member routes for a shared person', () => {
  it("the owner's own profile is still no family member to its owner, but a holder reaches it by its id", async () => {
    const owner = await signedInUser(t.app, { username: 'Olivia Owner' });
    const holder = await signedInUser(t.app);
    const ownerSelf = await selfProfileId(t.database.db, owner.id);
    await t.database.db.updateTable('profiles').set({ name: 'Olivia Rivera' }).where('id', '=', ownerSelf).execute();
    expect((await owner.client.get(`/api/user/family/members/${ownerSelf}`)).statusCode).toBe(404);
    await insertShare(t.database.db, { profileId: ownerSelf, ownerId: owner.id, holderId: holder.id, role: 'editor' });

    const read = await holder.client.get(`/api/user/family/members/${ownerSelf}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: ownerSelf, name: 'Olivia Rivera', relationship: null });
    // An editor saves the whole form; an account's own profile keeps having no relationship.
    const before = (await owner.client.get('/api/user/getPatientProfile')).json();
    const saved = await holder.client.put(`/api/user/family/members/${ownerSelf}`, {
      name: 'Olivia Rivera',
      date_of_birth: '1980-02-03',
      relationship: 'mother',
      is_pet: false,
      blood_type: 'B+',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ blood_type: 'B+', relationship: null, is_pet: false });
    // The owner's cached profile answer follows a write made through a share (profile_versions).
    const after = (await owner.client.get('/api/user/getPatientProfile')).json();
    expect(before.blood_type).toBeNull();
    expect(after.blood_type).toBe('B+');
    const med = await holder.client.post(`/api/user/family/members/${ownerSelf}/medications`, {
      medication_name: 'Metformin',
      dosage: '500 mg',
    });
    expect(med.statusCode).toBe(201);
    expect(
      (await owner.client.get('/api/user/getPatientProfile')).json().medications.map((m: { medication_name: string }) => m.medication_name),
    ).toEqual(['Metformin']);
    // Only the owner deletes a person; an account's own profile is deleted with the account only.
    expect((await holder.client.delete(`/api/user/family/members/${ownerSelf}`)).statusCode).toBe(403);
  });

  it("the Prescriptions list is the own profile's by default, and another visible person's with ?person=", async () => {
    const { owner, holder, child } = await family('viewer');
    await owner.client.post('/api/user/medications', { medication_name: 'Own pill', dosage: '1' });
    await owner.client.post(`/api/user/family/members/${child}/medications`, { medication_name: 'Child syrup', dosage: '5 ml' });
    const names = (res: { json(): unknown }) => (res.json() as { medication_name: string }[]).map((m) => m.medication_name);
    expect(names(await owner.client.get('/api/user/medications'))).toEqual(['Own pill']);
    expect(names(await owner.client.get(`/api/user/medications?person=${child}`))).toEqual(['Child syrup']);
    expect(names(await holder.client.get(`/api/user/medications?person=${child}`))).toEqual(['Child syrup']);
    expect(names(await holder.client.get('/api/user/medications'))).toEqual([]);
  });
});

describe('deleting a family member', () => {
  it("moves the member's files and appointments to the owner's own profile, nothing lost, and ends the member's shares", async () => {
    const { owner, holder, child, ownerSelf } = await family('editor');
    const file = (await fileFor(holder.client, child)).json();
    const appt = (await holder.client.post('/api/user/appointments', appointment({ person_id: child }))).json();
    expect((await owner.client.delete(`/api/user/family/members/${child}`)).statusCode).toBe(200);

    const files = (await owner.client.get('/api/user/files')).json();
    expect(files).toEqual([expect.objectContaining({ id: file.id, person_id: ownerSelf })]);
    expect((await owner.client.get(`/api/user/files/${file.id}/content`)).rawPayload.equals(PDF)).toBe(true);
    expect((await owner.client.get('/api/user/appointments')).json()).toEqual([
      expect.objectContaining({ id: appt.id, person_id: ownerSelf }),
    ]);
    // The holder's share went with the person: they reach neither.
    expect((await holder.client.get('/api/user/files')).json()).toEqual([]);
    expect((await holder.client.get(`/api/user/files/${file.id}/content`)).statusCode).toBe(404);
    expect(await t.database.db.selectFrom('person_shares').select('id').where('profile_id', '=', child).execute()).toEqual([]);
  });
});

describe('emergency access notices', () => {
  it('go to the owner and every manager of the person — not to editors, viewers or ended managers', async () => {
    const owner = await signedInUser(t.app);
    const [manager, secondManager, editor, viewer, expired] = await Promise.all([1, 2, 3, 4, 5].map(() => signedInUser(t.app)));
    const child = await insertMember(t.database.db, owner.id, { name: 'Mia Rivera' });
    const share = (u: User, role: 'manager' | 'editor' | 'viewer', endsAt?: string) =>
      insertShare(t.database.db, { profileId: child, ownerId: owner.id, holderId: u.id, role, ...(endsAt ? { endsAt } : {}) });
    await share(manager!, 'manager');
    await share(secondManager!, 'manager');
    await share(editor!, 'editor');
    await share(viewer!, 'viewer');
    await share(expired!, 'manager', daysAgo(1));
    // A manager sets the code up.
    const setUp = await manager!.client.post(`/api/user/family/members/${child}/qr`, { pin: '4826' });
    expect(setUp.statusCode).toBe(201);
    const shareId = setUp.json().share_id as string;

    const view = await new TestClient(t.app).get(`/api/user/family/emergency/${shareId}?pin=4826`);
    expect(view.statusCode).toBe(200);

    const accessNotes = async (u: User) =>
      (await u.client.get('/api/user/notifications'))
        .json<{ type: string; data: { message: string } }[]>()
        .filter((n) => n.type === 'family_emergency_access');
    for (const u of [owner, manager!, secondManager!]) {
      const notes = await accessNotes(u);
      expect(notes).toHaveLength(1);
      expect(notes[0]?.data.message).toBe("Someone opened Mia Rivera's emergency information with the correct PIN.");
    }
    for (const u of [editor!, viewer!, expired!]) expect(await accessNotes(u)).toEqual([]);
  });

  it("a manager of another account's own profile hears of its code being opened, in words naming the person", async () => {
    const owner = await signedInUser(t.app);
    const manager = await signedInUser(t.app);
    const ownerSelf = await selfProfileId(t.database.db, owner.id);
    await t.database.db.updateTable('profiles').set({ name: 'Grandpa Joe' }).where('id', '=', ownerSelf).execute();
    await insertShare(t.database.db, { profileId: ownerSelf, ownerId: owner.id, holderId: manager.id, role: 'manager' });
    const setUp = await owner.client.post('/api/user/wearable-qr', { pin: '4826' });
    const shareId = setUp.json().share_id as string;
    // The manager runs the same code through the member route.
    expect((await manager.client.get(`/api/user/family/members/${ownerSelf}/qr`)).json()).toMatchObject({
      share_id: shareId,
      exists: true,
    });
    expect((await new TestClient(t.app).get(`/api/user/emergency/${shareId}?pin=4826`)).statusCode).toBe(200);
    const ownerNotes = (await owner.client.get('/api/user/notifications')).json();
    expect(ownerNotes.find((n: { type: string }) => n.type === 'qr_access').data.message).toBe(
      'Someone opened your emergency information with the correct PIN.',
    );
    const managerNotes = (await manager.client.get('/api/user/notifications')).json();
    expect(managerNotes.find((n: { type: string }) => n.type === 'family_emergency_access').data.message).toBe(
      "Someone opened Grandpa Joe's emergency information with the correct PIN.",
    );
  });
});

describe("the owner's audit trail", () => {
  it("records every read and write through a share with the person and the holder, and none of the owner's own", async () => {
    const { owner, holder, child } = await family('editor');
    await owner.client.get(`/api/user/family/members/${child}`);
    await holder.client.get(`/api/user/family/members/${child}`);
    await holder.client.post(`/api/user/family/members/${child}/medications`, { medication_name: 'Syrup', dosage: '5 ml' });
    const file = (await fileFor(holder.client, child)).json();
    await holder.client.get(`/api/user/files/${file.id}/content`);
    await holder.client.get('/api/user/files');
    const events = await t.database.db
      .selectFrom('audit_events')
      .select(['user_id', 'actor_id', 'profile_id', 'action', 'detail'])
      .where('user_id', '=', owner.id)
      .where('action', 'in', ['shared_read', 'shared_write', 'file_download'])
      .orderBy('created_at')
      .execute();
    const what = (e: { detail: string | null }) => (JSON.parse(e.detail ?? '{}') as { what?: string }).what;
    // Events of one request may share a millisecond: compared as a set.
    expect(events.map((e) => `${e.action} ${what(e) ?? 'download'}`).sort()).toEqual(
      [
        'shared_read GET /api/user/family/members/:id',
        'shared_write POST /api/user/family/members/:id/medications',
        'shared_write POST /api/user/files',
        'shared_read GET /api/user/files/:id/content',
        'file_download download',
        'shared_read GET /api/user/files',
      ].sort(),
    );
    for (const e of events) expect(e).toMatchObject({ user_id: owner.id, actor_id: holder.id, profile_id: child });
  });
});

describe('export and import keep each record with its person', () => {
  it("kinchart.json names each appointment's person, each person's FHIR collection holds theirs, and an import puts them back", async () => {
    const { owner, child } = await family();
    await owner.client.post('/api/user/appointments', appointment({ provider_name: 'Dr Own' }));
    await owner.client.post('/api/user/appointments', appointment({ provider_name: 'Dr Child', person_id: child }));
    await fileFor(owner.client, child);
    const zip = await readZip(await exportZip(owner.client));
    const doc = JSON.parse(zip.get('kinchart.json')?.toString('utf8') ?? '{}');
    const childInExport = doc.profiles.find((p: { is_self: boolean }) => !p.is_self);
    expect(doc.appointments.map((a: { provider_name: string; profile_id: string }) => [a.provider_name, a.profile_id]).sort()).toEqual([
      ['Dr Child', childInExport.id],
      ['Dr Own', doc.profiles.find((p: { is_self: boolean }) => p.is_self).id],
    ]);
    const bundleOf = (path: string) =>
      JSON.parse(zip.get(path)?.toString('utf8') ?? '{}') as {
        entry: { resource: { resourceType: string; participant?: { actor: { display?: string } }[] } }[];
      };
    const providers = (path: string) =>
      bundleOf(path)
        .entry.filter((e) => e.resource.resourceType === 'Appointment')
        .flatMap((e) => (e.resource.participant ?? []).map((p) => p.actor.display).filter(Boolean));
    // Appointments are in the collection beside each person's IPS document (decision 0023).
    expect(providers(childInExport.fhir_other)).toEqual(['Dr Child']);
    expect(providers(doc.profiles.find((p: { is_self: boolean }) => p.is_self).fhir_other)).toEqual(['Dr Own']);

    // Into a fresh account: the child comes along, with its appointment and its file.
    const other = await signedInUser(t.app);
    const res = await importFile(other.client, await exportZip(owner.client), 'export.zip');
    expect(res.statusCode, res.body).toBe(200);
    const [newChild] = (await other.client.get('/api/user/family/members')).json();
    const appts = (await other.client.get('/api/user/appointments')).json();
    expect(appts.map((a: { provider_name: string; person_id: string }) => [a.provider_name, a.person_id]).sort()).toEqual([
      ['Dr Child', newChild.id],
      ['Dr Own', await selfProfileId(t.database.db, other.id)],
    ]);
    expect((await other.client.get(`/api/user/files?person=${newChild.id}`)).json()).toHaveLength(1);
    // Importing it again adds nothing: each appointment is recognised with its person.
    const again = await importFile(other.client, await exportZip(owner.client), 'export.zip');
    expect(again.json().imported.appointments).toBe(0);
    expect(again.json().already_present.appointments).toBe(2);
  });

  it('an export made before people (appointments without profile_id) files them under the own profile', async () => {
    const { owner, child } = await family();
    await owner.client.post('/api/user/appointments', appointment({ person_id: child }));
    const zip = await readZip(await exportZip(owner.client));
    const doc = JSON.parse(zip.get('kinchart.json')?.toString('utf8') ?? '{}');
    for (const a of doc.appointments) delete a.profile_id;
    const old = await makeZip(
      [...zip.entries()].map(([name, content]) => ({ name, content: name === 'kinchart.json' ? JSON.stringify(doc) : content })),
    );
    const other = await signedInUser(t.app);
    expect((await importFile(other.client, old, 'old.zip')).statusCode).toBe(200);
    expect((await other.client.get('/api/user/appointments')).json()).toEqual([
      expect.objectContaining({ person_id: await selfProfileId(t.database.db, other.id) }),
    ]);
  });

  it('an editor imports a FHIR Bundle for a shared person: it lands with the person, held by the owner', async () => {
    const { owner, holder, child } = await family('editor');
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: 'urn:uuid:p', resource: { resourceType: 'Patient', birthDate: '2015-09-03' } },
        {
          fullUrl: 'urn:uuid:a',
          resource: {
            resourceType: 'Appointment',
            status: 'booked',
            start: '2027-05-06T09:00:00Z',
            end: '2027-05-06T09:30:00Z',
            participant: [
              { actor: { reference: 'urn:uuid:p' }, status: 'accepted' },
              { actor: { display: 'Dr Tooth' }, status: 'accepted' },
            ],
          },
        },
      ],
    };
    const res = await importFile(holder.client, Buffer.from(JSON.stringify(bundle)), 'summary.json', { profileId: child });
    expect(res.statusCode, res.body).toBe(200);
    expect((await owner.client.get(`/api/user/appointments?person=${child}`)).json()).toEqual([
      expect.objectContaining({ provider_name: 'Dr Tooth', person_id: child }),
    ]);
    expect((await holder.client.get('/api/user/appointments')).json()).toHaveLength(1);
    const viewerFamily = await family('viewer');
    const refused = await importFile(viewerFamily.holder.client, Buffer.from(JSON.stringify(bundle)), 'summary.json', {
      profileId: viewerFamily.child,
    });
    expect(refused.statusCode).toBe(403);
  });
});
