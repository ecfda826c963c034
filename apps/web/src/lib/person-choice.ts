import { t } from '@lingui/core/macro';
import { useState } from 'react';
import { roleAllows, type Person } from '@kinchart/shared/people';
import { personLabel, usePeople } from './queries/people';
import { useSelectedPersonId } from './selected-person';

// DESIGN §11: the people a user sees, and which of them a screen offers. Pure helpers first
// (tested on their own), then the hook the "For" choices share.

/** The account holder's own profile ("My Profile"); a shared person's own profile is not yours. */
export function ownPerson(people: readonly Person[]): Person | undefined {
  return people.find((p) => p.is_self && p.shared_by === null);
}

/** Editors, managers and owners add and change a person's records; viewers only read. */
export function canWrite(person: Pick<Person, 'role'>): boolean {
  return roleAllows(person.role, 'editor');
}

/**
 * The person a screen starts on: the one chosen on the dashboard when it is among `people`,
 * else yourself, else the first one offered (null while there is no one).
 */
export function defaultPersonId(people: readonly Person[], selectedId: string | null): string | null {
  if (selectedId !== null && people.some((p) => p.id === selectedId)) return selectedId;
  return (ownPerson(people) ?? people[0])?.id ?? null;
}

/** A person as a choice reads: "Alice (you)", "Mia", "Grandpa Joe (Shared by sam)". */
export function personOptionLabel(person: Person): string {
  const name = personLabel(person);
  const sharedBy = person.shared_by;
  if (sharedBy !== null) return t`${name} (Shared by ${sharedBy})`;
  if (person.is_self) return person.name ? t`${name} (you)` : name;
  return name;
}

/**
 * The name a record's owner goes by in lists: the people list's label for `personId`, else the
 * name the answer carried, else null when nothing is known.
 */
export function personNameOf(
  people: readonly Person[] | undefined,
  personId: string | null | undefined,
  fallback?: string | null,
): string | null {
  const person = personId ? people?.find((p) => p.id === personId) : undefined;
  if (person) return personLabel(person);
  return fallback || null;
}

export interface ForPerson {
  /** The people the user may add records for (owner, manager or editor; never viewer). */
  people: Person[];
  /** The chosen person's id, or null while the list is not there (the server then uses yourself). */
  value: string | null;
  onChange: (personId: string) => void;
  /** Only worth asking when there is more than one person to choose from. */
  showChoice: boolean;
}

/**
 * The "For" choice of the upload form, the upload modal and the appointment form: the people the
 * user can write to, starting on the person chosen on the dashboard, else yourself. `preferred`
 * (a screen's own person filter, say) goes before the dashboard's choice when it is writable.
 */
export function useForPerson(preferred?: string | null): ForPerson {
  const people = usePeople();
  const selectedId = useSelectedPersonId();
  const [chosen, setChosen] = useState<string | null>(null);
  const writable = (people.data ?? []).filter(canWrite);
  const has = (id: string | null | undefined): id is string => Boolean(id) && writable.some((p) => p.id === id);
  const value = has(chosen) ? chosen : has(preferred) ? preferred : defaultPersonId(writable, selectedId);
  return { people: writable, value, onChange: setChosen, showChoice: writable.length > 1 };
}
