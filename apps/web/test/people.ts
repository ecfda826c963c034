import type { Person } from '@kinchart/shared/people';

// GET /api/user/people entries, shaped like the server's answer (personSchema), for unit tests.

/** Yourself: the account holder's own profile. */
export function makeSelf(id = 'self-1', overrides: Partial<Person> = {}): Person {
  return {
    id,
    name: 'Alice Example',
    relationship: null,
    is_pet: false,
    is_self: true,
    role: 'owner',
    shared_by: null,
    share_id: null,
    ...overrides,
  };
}

/** One of your own family members (pets included). */
export function makeFamilyPerson(id: string, overrides: Partial<Person> = {}): Person {
  return {
    id,
    name: `Member ${id}`,
    relationship: 'child',
    is_pet: false,
    is_self: false,
    role: 'owner',
    shared_by: null,
    share_id: null,
    ...overrides,
  };
}

/** A person another account shares with you, under `role`. */
export function makeSharedPerson(id: string, overrides: Partial<Person> = {}): Person {
  return {
    id,
    name: `Shared ${id}`,
    relationship: 'parent',
    is_pet: false,
    is_self: false,
    role: 'viewer',
    shared_by: 'sam',
    share_id: `share-${id}`,
    ...overrides,
  };
}
