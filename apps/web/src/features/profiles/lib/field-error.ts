import { translateMessageText } from '../../../i18n/message-text';

/**
 * A field's error as the reader reads it (issue 35): the shared schemas' English messages through
 * the catalog; this feature's own messages are already in the reader's language.
 */
export function fieldError(error: { message?: string | undefined } | undefined): string | undefined {
  return error?.message ? translateMessageText(error.message) : undefined;
}
