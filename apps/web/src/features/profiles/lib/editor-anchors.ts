// Issue 33: search results open a person's editor at a row — `#allergies`, `#contact-<id>`,
// `#provider-<id>` — so the editor starts on the tab that holds it.

type AnchoredTab = 'medical' | 'contacts' | 'providers';

/** The editor tab holding the row a hash names, if any. */
export function editorTabOfHash(hash: string): AnchoredTab | undefined {
  if (hash === '#allergies') return 'medical';
  if (hash.startsWith('#contact-')) return 'contacts';
  if (hash.startsWith('#provider-')) return 'providers';
  return undefined;
}
