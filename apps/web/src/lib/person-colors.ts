import type { Person } from '@kinchart/shared/people';

/**
 * One colour per person, for the appointments calendar and its legend. Each is dark enough for
 * white text (WCAG 2.1 AA, ≥ 4.5:1) and they differ in hue; colour is never the only cue — the
 * person's name is written beside it. A person keeps their colour while the people list keeps
 * its order (own profile first, then family, then shared people).
 */
export const PERSON_COLORS: readonly { background: string; border: string }[] = [
  { background: '#4338ca', border: '#312e81' }, // indigo (brand-700), 7.9:1
  { background: '#0f766e', border: '#134e4a' }, // teal-700, 5.5:1
  { background: '#be123c', border: '#881337' }, // rose-700, 6.3:1
  { background: '#854d0e', border: '#713f12' }, // yellow-800, 6.9:1
  { background: '#7e22ce', border: '#581c87' }, // purple-700, 7.0:1
  { background: '#15803d', border: '#14532d' }, // green-700, 5.0:1
  { background: '#0369a1', border: '#0c4a6e' }, // sky-700, 5.9:1
  { background: '#c2410c', border: '#7c2d12' }, // orange-700, 5.2:1
];

/** The colour for someone not in the people list (a person removed since the list loaded). */
export const UNKNOWN_PERSON_COLOR = { background: '#475569', border: '#1e293b' }; // slate-600, 7.6:1

export function personColor(people: readonly Pick<Person, 'id'>[] | undefined, personId: string | null | undefined) {
  const index = personId && people ? people.findIndex((p) => p.id === personId) : -1;
  return index < 0 ? UNKNOWN_PERSON_COLOR : (PERSON_COLORS[index % PERSON_COLORS.length] ?? UNKNOWN_PERSON_COLOR);
}
