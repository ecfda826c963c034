/**
 * Whose code a sentence is about: the signed-in person's own ("your code"), a named family
 * member's ("Rex’s code") or an unnamed one's ("this member’s code"). Each sentence is one message
 * with the three forms (an ICU select on `who`), so every language words its own possessive.
 */
export type Whose = { who: 'self' } | { who: 'named'; name: string } | { who: 'member' };

export const SELF_WHOSE: Whose = { who: 'self' };

/** `who` for a select ('self', 'named', else 'other') and the name ('' without one). */
export function whoseParts(whose: Whose): { who: 'self' | 'named' | 'other'; name: string } {
  if (whose.who === 'named') return { who: 'named', name: whose.name };
  return { who: whose.who === 'self' ? 'self' : 'other', name: '' };
}
