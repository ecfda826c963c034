import { describe, expect, it } from 'vitest';
import { makeFamilyPerson, makeSelf, makeSharedPerson } from '../../test/people';
import { canWrite, defaultPersonId, ownPerson, personNameOf, personOptionLabel } from './person-choice';

const me = makeSelf('me', { name: 'Pat Example' });
const mia = makeFamilyPerson('mia', { name: 'Mia' });
// Another account's own profile, shared with the user: not "you".
const dad = makeSharedPerson('dad', { name: 'Dad', is_self: true, shared_by: 'sam', role: 'editor' });
const joe = makeSharedPerson('joe', { name: 'Grandpa Joe', shared_by: 'kim', role: 'viewer' });

describe('people choices', () => {
  it('yourself is your own profile, never the owner of a profile shared with you', () => {
    expect(ownPerson([dad, me, mia])).toBe(me);
    expect(ownPerson([dad, mia])).toBeUndefined();
  });

  it('owners, managers and editors write; viewers only read', () => {
    expect([me, mia, dad, joe, makeSharedPerson('x', { role: 'manager' })].map(canWrite)).toEqual([true, true, true, false, true]);
  });

  it('starts on the dashboard choice when it is offered, else yourself, else the first one', () => {
    expect(defaultPersonId([me, mia, dad], 'dad')).toBe('dad');
    expect(defaultPersonId([me, mia, dad], null)).toBe('me');
    expect(defaultPersonId([me, mia], 'joe')).toBe('me');
    expect(defaultPersonId([mia, dad], null)).toBe('mia');
    expect(defaultPersonId([], 'mia')).toBeNull();
  });

  it('labels yourself and shared people so they can be told apart', () => {
    expect(personOptionLabel(me)).toBe('Pat Example (you)');
    expect(personOptionLabel(makeSelf('me', { name: null }))).toBe('You');
    expect(personOptionLabel(mia)).toBe('Mia');
    expect(personOptionLabel(dad)).toBe('Dad (Shared by sam)');
    expect(personOptionLabel(makeSharedPerson('n', { name: null, shared_by: 'kim' }))).toBe('Unnamed (Shared by kim)');
  });

  it("names a record's person from the people list, else from the answer", () => {
    expect(personNameOf([me, mia], 'mia', 'Old name')).toBe('Mia');
    expect(personNameOf([me], 'gone', 'Former member')).toBe('Former member');
    expect(personNameOf(undefined, 'mia', null)).toBeNull();
  });
});
