import type { AccessEvent, Invitation, Person, Share } from '@kinchart/shared/people';

/** One entry of GET /api/user/people/{id}/shares, every field the server sends. */
export function makeShare(id: string, overrides: Partial<Share> = {}): Share {
  return {
    share_id: id,
    role: 'viewer',
    status: 'active',
    holder_username: 'grandma',
    email: null,
    expires_at: null,
    invite_expires_at: '2026-03-11T09:00:00.000Z',
    created_at: '2026-03-04T09:00:00.000Z',
    accepted_at: '2026-03-04T10:00:00.000Z',
    ...overrides,
  };
}

/** One entry of GET /api/user/people. */
export function makePerson(id: string, overrides: Partial<Person> = {}): Person {
  return {
    id,
    name: null,
    relationship: null,
    is_pet: false,
    is_self: false,
    role: 'owner',
    shared_by: null,
    share_id: null,
    ...overrides,
  };
}

export function makeInvitation(overrides: Partial<Invitation> = {}): Invitation {
  return { shared_by: 'alice', person_name: 'Mia', is_pet: false, role: 'editor', expires_at: null, ...overrides };
}

/** One entry of the access history; a single event unless `count`, `first_at` and `what_all` say more. */
export function makeAccessEvent(id: string, overrides: Partial<AccessEvent> = {}): AccessEvent {
  const what = overrides.what ?? 'GET /api/user/files';
  const createdAt = overrides.created_at ?? '2026-03-04T09:05:00.000Z';
  return {
    id,
    actor: 'grandma',
    action: 'shared_read',
    what,
    created_at: createdAt,
    count: 1,
    first_at: createdAt,
    what_all: [what],
    ...overrides,
  };
}
