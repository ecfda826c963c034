const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

// Issue 35: the server keeps its English `message` (the SPEC's texts) and adds a stable `code`
// (and `params`) for each; the reader sees the code's text from their catalog.
// FOUNDATION STUB — the server-codes work replaces the bodies below with the catalog lookup.

/** The text of a server answer (error or success) in the reader's language; its English message if the code is unknown. */
export function serverText(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const { message } = body;
  return typeof message === 'string' && message !== '' ? message : undefined;
}

/**
 * An English text the shared rules produce (a zod message from packages/shared, shown under a
 * field before anything is sent) in the reader's language; the text itself if it is not known.
 */
export function translateMessageText(text: string): string {
  return text;
}
