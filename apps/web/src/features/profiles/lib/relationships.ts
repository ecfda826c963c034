import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { RELATIONSHIPS } from '@kinchart/shared/profile';

/** SPEC §3: the add form's relationship values, as the forms show them (the stored value stays English). */
export const RELATIONSHIP_LABELS: Record<(typeof RELATIONSHIPS)[number], MessageDescriptor> = {
  spouse: msg({ message: 'Spouse', context: 'relationship' }),
  child: msg({ message: 'Child', context: 'relationship' }),
  parent: msg({ message: 'Parent', context: 'relationship' }),
  sibling: msg({ message: 'Sibling', context: 'relationship' }),
  other: msg({ message: 'Other', context: 'relationship' }),
};

/**
 * The relationship choices of a form whose stored value is `current` (issue 30 #28): the five of
 * SPEC §3, and the stored value kept exactly as it is, so a save without a change never alters it.
 * A value that is one of the five written another way ('Child') takes that one's place; any other
 * (free text from before, an import: 'Grandma') is added as its own choice.
 */
export function relationshipOptions(
  current: string,
  translate: (descriptor: MessageDescriptor) => string,
): { value: string; label: string }[] {
  const options = RELATIONSHIPS.map((value) => ({ value: value, label: translate(RELATIONSHIP_LABELS[value]) }));
  if (current === '' || options.some((o) => o.value === current)) return options;
  const same = options.findIndex((o) => o.value === current.trim().toLowerCase());
  if (same >= 0) return options.map((o, i) => (i === same ? { ...o, value: current } : o));
  return [...options, { value: current, label: current }];
}
