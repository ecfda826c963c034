/**
 * The one HTTP client of the web app (DESIGN §2, §8). Every call sends the session cookie
 * (SPEC §6: "every call sends credentials"), speaks JSON, has no timeout (SPEC §7) and treats
 * any 2xx answer as success. The server checks the Origin header of non-GET requests; browsers
 * send it on their own, so nothing is added here.
 */

import { t } from '@lingui/core/macro';
import { serverText } from '../i18n/server-messages';
import { markReachable, markUnreachable } from './connection';

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    message: string,
    /** The parsed answer body (JSON object, text, or undefined when empty). */
    readonly body: unknown,
  ) {
    super(message);
  }
}

/**
 * A request that got no answer at all: no connection, or the server out of reach. The page is
 * then marked offline (lib/connection) until something answers again.
 */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

/** The request never reached the server (not a refusal, not a cancel). */
export function isNetworkError(error: unknown): error is NetworkError {
  return error instanceof NetworkError;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequestOptions {
  method?: HttpMethod;
  /** A plain value is sent as JSON; FormData is sent as multipart with the browser's boundary. */
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
}

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The server's message of an error answer in the reader's language (its `code`, else its English `message`), when there is one. */
export function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || !isRecord(error.body)) return undefined;
  return serverText(error.body);
}

/** The server's `error` field of an error answer, when there is one. */
export function serverErrorField(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || !isRecord(error.body)) return undefined;
  const { error: field } = error.body;
  return typeof field === 'string' && field !== '' ? field : undefined;
}

/*
 * Re-authentication (DESIGN §5, docs/decisions/0024): some actions need the password within the
 * last 10 minutes and answer 401 `{ reauth_required: true }` otherwise. The signed-in app registers
 * one handler (its password dialog); any call that meets such an answer waits for it and, once the
 * password is confirmed, is sent again. Read by hand, not by the shared zod schema: this module
 * is in the entry chunk every page loads (decision 0017).
 */

/** Asks for the password; resolves true once it is confirmed, false when the person cancels. */
export type ReauthHandler = () => Promise<boolean>;
let reauthHandler: ReauthHandler | null = null;

/** Registers the password prompt; answers the function that removes it. */
export function onReauthRequired(handler: ReauthHandler): () => void {
  reauthHandler = handler;
  return () => {
    if (reauthHandler === handler) reauthHandler = null;
  };
}

/** A 401 asking to confirm the password (not "signed out"). */
export function isReauthRequired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && isRecord(error.body) && error.body.reauth_required === true;
}

/**
 * Runs `attempt`; when it fails with a re-authentication prompt, asks for the password and runs it
 * once more. Cancelled (or no prompt registered), the original error goes to the caller.
 */
export async function withReauth<T>(attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!isReauthRequired(error) || !reauthHandler || !(await reauthHandler())) throw error;
    return attempt();
  }
}

function buildUrl(path: string, query: ApiRequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}${path.includes('?') ? '&' : '?'}${search}` : path;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * Calls the API and resolves with the parsed answer. Non-2xx answers reject with an ApiError
 * whose message is the body's `message`, else its `error`, else a generic text. An answer asking
 * for the password again opens the prompt and, once confirmed, the call is sent again.
 * The type parameter is the caller's statement of the answer shape; the server's response
 * schemas (DESIGN §2) are what guarantee it.
 */
export async function apiRequest<T = unknown>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  return withReauth(() => sendRequest<T>(path, options));
}

async function sendRequest<T>(path: string, options: ApiRequestOptions): Promise<T> {
  const { method = 'GET', body, query, signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      body: payload,
      credentials: 'include',
      signal,
    });
  } catch (error) {
    // A cancel is the caller's own doing; anything else is a request that found no server.
    if (signal?.aborted || (error instanceof DOMException && error.name === 'AbortError')) throw error;
    markUnreachable();
    throw new NetworkError(error instanceof Error && error.message ? error.message : t`Failed to fetch`, { cause: error });
  }
  markReachable();
  const data = await readBody(response);

  if (!response.ok) {
    const fromBody = isRecord(data) ? [data.message, data.error].find((v): v is string => typeof v === 'string' && v !== '') : undefined;
    const status = response.status;
    // The reader's language (issue 35): the answer's code through the catalog, else its English message.
    throw new ApiError(status, serverText(data) ?? fromBody ?? t`Request failed with status code ${status}`, data);
  }
  return data as T;
}

export const api = {
  get: <T = unknown>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T = unknown>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T = unknown>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T = unknown>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE', body }),
};

/**
 * SPEC §8: "where a server message field is present it is shown; otherwise the fallback". An
 * answer without a message falls back to `failed`; a request that got no answer at all (network)
 * falls back to `errored` — the spec's 'Failed to …' and 'Error …' pairs.
 */
export function errorMessage(error: unknown, failed: string, errored: string = failed): string {
  return serverMessage(error) ?? (error instanceof ApiError ? failed : errored);
}
