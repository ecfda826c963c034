import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { PersonRole, ShareRole } from '@kinchart/shared/people';

/*
 * The roles as people read them. The API's values stay English ('viewer'); these are their words in
 * the reader's language (the English ones are ROLE_LABELS and ROLE_DESCRIPTIONS of packages/shared).
 */
export const ROLE_LABELS: Record<PersonRole, MessageDescriptor> = {
  owner: msg({ message: 'Owner', context: 'sharing role' }),
  manager: msg({ message: 'Manager', context: 'sharing role' }),
  editor: msg({ message: 'Editor', context: 'sharing role' }),
  viewer: msg({ message: 'Viewer', context: 'sharing role' }),
};

/** "Editor access": a role's access as a whole, as a card or a link names it. */
const ROLE_ACCESS: Record<PersonRole, MessageDescriptor> = {
  owner: msg({ message: 'Owner access', comment: 'The access a sharing role gives' }),
  manager: msg({ message: 'Manager access', comment: 'The access a sharing role gives' }),
  editor: msg({ message: 'Editor access', comment: 'The access a sharing role gives' }),
  viewer: msg({ message: 'Viewer access', comment: 'The access a sharing role gives' }),
};

/** What each share role allows, in the words the share dialog uses. */
export const ROLE_DESCRIPTIONS: Record<ShareRole, MessageDescriptor> = {
  viewer: msg`Can see everything, including files`,
  editor: msg`Can also add, edit and delete records, medications, contacts, providers, appointments and files`,
  manager: msg`Can also manage the emergency code and who has access`,
};

/** A role's name in the reader's language ("Editor"); a role this version does not know, as stored. */
export function roleLabel(role: string): string {
  const label = (ROLE_LABELS as Partial<Record<string, MessageDescriptor>>)[role];
  return label ? i18n._(label) : role;
}

/** "Editor access" in the reader's language. */
export const roleAccessLabel = (role: PersonRole): string => i18n._(ROLE_ACCESS[role]);
