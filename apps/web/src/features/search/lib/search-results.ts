import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import type { Person } from '@kinchart/shared/people';
import type { SearchKind, SearchResult } from '@kinchart/shared/search';
import { ownPerson, personOptionLabel } from '../../../lib/person-choice';

// Issue 33: how the results page arranges one search's answer. Pure, so it is tested on its own.

/** The heading of each kind of result (shown through the reader's catalog). */
export const KIND_LABELS: Record<SearchKind, MessageDescriptor> = {
  file: msg`Files`,
  medication: msg`Medications`,
  condition: msg`Conditions`,
  allergy: msg`Allergies`,
  immunization: msg`Immunizations`,
  'lab-result': msg`Lab results`,
  procedure: msg`Procedures`,
  appointment: msg`Appointments`,
  contact: msg`Emergency contacts`,
  provider: msg`Providers`,
};

export interface KindGroup {
  kind: SearchKind;
  results: SearchResult[];
}

export interface PersonGroup {
  personId: string;
  /** The person's heading: the people list's label ("Alice (you)", "Mia (Shared by sam)"), else the answer's name. */
  name: string;
  kinds: KindGroup[];
}

/**
 * The results by person, then by kind. Both keep the order of their best (first) result, so the
 * most relevant person and kind come first, and the groups already shown stay in place when
 * "Load more" appends results.
 */
export function groupResults(results: readonly SearchResult[], people: readonly Person[] | undefined): PersonGroup[] {
  const groups = new Map<string, PersonGroup>();
  for (const result of results) {
    let group = groups.get(result.person_id);
    if (!group) {
      group = { personId: result.person_id, name: personHeading(result, people), kinds: [] };
      groups.set(result.person_id, group);
    }
    let kind = group.kinds.find((k) => k.kind === result.kind);
    if (!kind) {
      kind = { kind: result.kind, results: [] };
      group.kinds.push(kind);
    }
    kind.results.push(result);
  }
  return [...groups.values()];
}

function personHeading(result: SearchResult, people: readonly Person[] | undefined): string {
  const person = people?.find((p) => p.id === result.person_id);
  if (person) return personOptionLabel(person);
  return result.person_name || t({ message: 'Unnamed', comment: 'A person without a name' });
}

export interface SnippetPart {
  text: string;
  marked: boolean;
}

/**
 * The snippet cut at its highlights ([start, end) offsets in UTF-16 units). Ranges are clamped to
 * the snippet, sorted and merged where they touch, so a server slip never repeats or loses text.
 */
export function snippetParts(snippet: string, highlights: readonly (readonly [number, number])[]): SnippetPart[] {
  const ranges = highlights
    .map(([start, end]) => [Math.max(0, Math.min(start, snippet.length)), Math.max(0, Math.min(end, snippet.length))] as const)
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of ranges) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  const parts: SnippetPart[] = [];
  let at = 0;
  for (const [start, end] of merged) {
    if (start > at) parts.push({ text: snippet.slice(at, start), marked: false });
    parts.push({ text: snippet.slice(start, end), marked: true });
    at = end;
  }
  if (at < snippet.length) parts.push({ text: snippet.slice(at), marked: false });
  return parts;
}

/**
 * The person the target screen should show, as lib/selected-person keeps it: null for the account
 * holder's own person (as the dashboard's switcher does for My Profile), else the result's person.
 */
export function selectedPersonFor(result: Pick<SearchResult, 'person_id'>, people: readonly Person[] | undefined): string | null {
  const own = people ? ownPerson(people) : undefined;
  return own?.id === result.person_id ? null : result.person_id;
}

/** Files open the stored document itself (in a new tab, as View Records opens them); everything else is a screen of the app. */
export function opensDocument(result: Pick<SearchResult, 'kind' | 'url'>): boolean {
  return result.kind === 'file' || result.url.startsWith('/api/');
}
