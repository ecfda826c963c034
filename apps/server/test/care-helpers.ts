import { expect } from 'vitest';
import type { TestApp } from './helpers';
import { signedInUser } from './helpers';
import { insertMember } from './factories';
import { insertShare } from './share-factories';

// Issue 32: a family for the schedule and dose tests — an owner with a child shared with an
// editor and a viewer, a stranger, and medications made through the API.

export type CareUser = Awaited<ReturnType<typeof signedInUser>>;

export interface CareFamily {
  owner: CareUser;
  editor: CareUser;
  viewer: CareUser;
  stranger: CareUser;
  /** The owner's child, shared with the editor and the viewer. */
  child: string;
}

export async function careFamily(t: TestApp, zone: string | null = 'America/New_York'): Promise<CareFamily> {
  const owner = await signedInUser(t.app, { username: 'Olivia Owner' });
  const editor = await signedInUser(t.app, { username: 'Eddie Editor' });
  const viewer = await signedInUser(t.app, { username: 'Vera Viewer' });
  const stranger = await signedInUser(t.app, { username: 'Sam Stranger' });
  const child = await insertMember(t.database.db, owner.id, { name: 'Mia Rivera' });
  await insertShare(t.database.db, { profileId: child, ownerId: owner.id, holderId: editor.id, role: 'editor' });
  await insertShare(t.database.db, { profileId: child, ownerId: owner.id, holderId: viewer.id, role: 'viewer' });
  await setZone(t, child, zone);
  return { owner, editor, viewer, stranger, child };
}

/** The person's own time zone (null: the account's). */
export async function setZone(t: TestApp, profileId: string, zone: string | null): Promise<void> {
  await t.database.db.updateTable('profiles').set({ time_zone: zone }).where('id', '=', profileId).execute();
}

/** A medication of a family member, added by its owner through the API; its id. */
export async function addMedication(
  owner: CareUser,
  personId: string,
  name = 'Amoxicillin',
  extra: Partial<{ is_current: boolean; dosage: string }> = {},
): Promise<string> {
  const res = await owner.client.post(`/api/user/family/members/${personId}/medications`, {
    medication_name: name,
    dosage: extra.dosage ?? '5 ml',
    frequency: 'Twice a day',
    is_current: extra.is_current ?? true,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

export const schedulePath = (personId: string, medicationId: string) => `/api/user/people/${personId}/medications/${medicationId}/schedule`;
export const dosesPath = (personId: string, rest = '') => `/api/user/people/${personId}/doses${rest}`;

/** Sets a schedule as the owner; the stored schedule. */
export async function putSchedule(owner: CareUser, personId: string, medicationId: string, body: Record<string, unknown>) {
  const res = await owner.client.put(schedulePath(personId, medicationId), body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Record<string, unknown>>();
}
