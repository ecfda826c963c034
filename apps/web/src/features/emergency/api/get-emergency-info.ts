import type * as shared from '@kinchart/shared/emergency';
import type { EmergencyEssentials, EmergencyInfo, EmergencyResponse, PetEmergencyInfo, PinStatus } from '@kinchart/shared/emergency';
import { ApiError } from '../../../lib/api-client';

/** The English fallback when a failed answer has no message, as the app's api client words it. */
const REQUEST_FAILED = 'Request failed with status code ';

/**
 * The public emergency view (SPEC §7 Emergency). Type-only imports keep this chunk free of zod:
 * the page is opened on a phone, often on a poor connection, within 60 KB of transfer (DESIGN §9).
 * So the answer is not run through emergencyResponseSchema here; the server's response schema is
 * what holds it to that shape. The header name and statuses are repeated here for the same reason;
 * their types tie them to the shared contract, so a change there fails tsc here.
 */
const PIN_STATUS_HEADER: typeof shared.PIN_STATUS_HEADER = 'kinchart-pin-status';
const PIN_STATUSES = ['ok', 'locked', 'disabled'] as const satisfies readonly PinStatus[];
type MissingStatus = Exclude<PinStatus, (typeof PIN_STATUSES)[number]>;
const everyStatusKnown: [MissingStatus] extends [never] ? true : never = true;
void everyStatusKnown;

export type EmergencyKind = 'self' | 'family';
export type { EmergencyEssentials, EmergencyInfo, EmergencyResponse, PetEmergencyInfo, PinStatus };

const paths: Record<EmergencyKind, string> = {
  self: '/api/user/emergency/',
  family: '/api/user/family/emergency/',
};

/** An error answer of the emergency API, with the seconds of a 429's Retry-After when given. */
export class EmergencyApiError extends ApiError {
  constructor(
    status: number,
    message: string,
    body: unknown,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(status, message, body);
  }
}

export interface EmergencyAnswer {
  body: EmergencyResponse;
  /** DESIGN §7: the PIN's state, sent with an opted-in code's answer; undefined otherwise. */
  pinStatus: PinStatus | undefined;
}

function pinStatusOf(headers: Headers): PinStatus | undefined {
  const value = headers.get(PIN_STATUS_HEADER)?.trim().toLowerCase();
  return PIN_STATUSES.find((s) => s === value);
}

function retryAfterOf(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * GET /api/user/emergency/{shareId} or /api/user/family/emergency/{shareId}, with `pin` in the
 * query string as the API requires. Its own fetcher rather than the app's client because the page
 * needs two answer headers (the PIN status and Retry-After). No session is sent: the viewer is a
 * stranger. The PIN is never logged here, and the server redacts it.
 */
export async function getEmergencyInfo(kind: EmergencyKind, shareId: string, pin?: string, signal?: AbortSignal): Promise<EmergencyAnswer> {
  const query = pin === undefined ? '' : `?${new URLSearchParams({ pin }).toString()}`;
  const response = await fetch(`${paths[kind]}${encodeURIComponent(shareId)}${query}`, {
    method: 'GET',
    headers: { Accept: 'application/json' },
    credentials: 'include',
    signal,
  });
  const body = await readJson(response);
  if (!response.ok) {
    // The server's English words (the page shows them to English readers only; others get its own).
    const message =
      typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' && body.message !== ''
        ? body.message
        : REQUEST_FAILED + String(response.status);
    throw new EmergencyApiError(response.status, message, body, retryAfterOf(response.headers));
  }
  return { body: body as EmergencyResponse, pinStatus: pinStatusOf(response.headers) };
}
