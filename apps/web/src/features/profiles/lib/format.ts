import { format, isValid, parseISO } from 'date-fns';
import { ApiError, serverMessage } from '../../../lib/api-client';

/** A stored YYYY-MM-DD date as people read it ('Mar 4, 1980'); the raw text if it is not a date. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = parseISO(value.slice(0, 10));
  return isValid(date) ? format(date, 'MMM d, yyyy') : value;
}

/**
 * SPEC §8: "where a server message field is present it is shown; otherwise the fallback". An
 * answer without a message falls back to `failed`; a request that got no answer at all (network)
 * falls back to `errored` — the spec's 'Failed to …' and 'Error …' pairs.
 */
export function errorMessage(error: unknown, failed: string, errored: string = failed): string {
  return serverMessage(error) ?? (error instanceof ApiError ? failed : errored);
}
