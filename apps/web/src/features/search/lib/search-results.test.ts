import { describe, expect, it } from 'vitest';
import type { SearchResult } from '@kinchart/shared/search';
import { makeFamilyPerson, makeSelf, makeSharedPerson } from '../../../../test/people';
import { groupResults, opensDocument, selectedPersonFor, snippetParts } from './search-results';

function result(kind: SearchResult['kind'], id: string, personId: string, overrides: Partial<SearchResult> = {}): SearchResult {
  return {
    kind,
    id,
    person_id: personId,
    person_name: `Name of ${personId}`,
    title: `${kind} ${id}`,
    date: null,
    snippet: '',
    highlights: [],
    url: `/somewhere/${id}`,
    ...overrides,
  };
}

describe('groupResults', () => {
  const people = [makeSelf('me', { name: 'Alice' }), makeFamilyPerson('kid', { name: 'Mia' }), makeSharedPerson('gran', { name: 'Rose' })];

  it('groups by person, then by kind, each in the order of its best result', () => {
    const groups = groupResults(
      [
        result('file', 'f1', 'kid'),
        result('medication', 'm1', 'me'),
        result('condition', 'c1', 'kid'),
        result('file', 'f2', 'kid'),
        result('medication', 'm2', 'gran'),
      ],
      people,
    );
    expect(groups.map((g) => g.name)).toEqual(['Mia', 'Alice (you)', 'Rose (Shared by sam)']);
    expect(groups[0]?.kinds.map((k) => [k.kind, k.results.map((r) => r.id)])).toEqual([
      ['file', ['f1', 'f2']],
      ['condition', ['c1']],
    ]);
  });

  it('names a person missing from the people list by the answer, else Unnamed', () => {
    const groups = groupResults([result('file', 'f1', 'x'), result('file', 'f2', 'y', { person_name: null })], []);
    expect(groups.map((g) => g.name)).toEqual(['Name of x', 'Unnamed']);
  });
});

describe('snippetParts', () => {
  it('cuts the snippet at its highlights', () => {
    expect(
      snippetParts('Ferritin 12 ng/mL, ferritin low', [
        [0, 8],
        [19, 27],
      ]),
    ).toEqual([
      { text: 'Ferritin', marked: true },
      { text: ' 12 ng/mL, ', marked: false },
      { text: 'ferritin', marked: true },
      { text: ' low', marked: false },
    ]);
  });

  it('sorts, merges and clamps ranges so no text is lost or repeated', () => {
    const parts = snippetParts('abcdefghij', [
      [8, 40],
      [2, 4],
      [3, 6],
      [-5, 1],
      [7, 7],
    ]);
    expect(parts).toEqual([
      { text: 'a', marked: true },
      { text: 'b', marked: false },
      { text: 'cdef', marked: true },
      { text: 'gh', marked: false },
      { text: 'ij', marked: true },
    ]);
    expect(parts.map((p) => p.text).join('')).toBe('abcdefghij');
  });

  it('keeps a snippet without highlights whole', () => {
    expect(snippetParts('nothing marked', [])).toEqual([{ text: 'nothing marked', marked: false }]);
  });
});

describe('selectedPersonFor', () => {
  const people = [makeSelf('me'), makeFamilyPerson('kid')];

  it('chooses My Profile (null) for your own person and the person otherwise', () => {
    expect(selectedPersonFor({ person_id: 'me' }, people)).toBeNull();
    expect(selectedPersonFor({ person_id: 'kid' }, people)).toBe('kid');
  });

  it('does not take a shared person whose own profile it is for yours', () => {
    const shared = makeSharedPerson('their-self', { is_self: true });
    expect(selectedPersonFor({ person_id: 'their-self' }, [...people, shared])).toBe('their-self');
  });
});

describe('opensDocument', () => {
  it('opens files as documents and everything else in the app', () => {
    expect(opensDocument({ kind: 'file', url: '/api/user/files/f1/content#page=2' })).toBe(true);
    expect(opensDocument({ kind: 'medication', url: '/prescriptions#medication-m1' })).toBe(false);
  });
});
