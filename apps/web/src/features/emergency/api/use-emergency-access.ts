import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, serverMessage } from '../../../lib/api-client';
import {
  EmergencyApiError,
  getEmergencyInfo,
  type EmergencyAnswer,
  type EmergencyEssentials,
  type EmergencyInfo,
  type EmergencyKind,
} from './get-emergency-info';

/** Why the last PIN did not open the information; the page words it in the viewer's language. */
export type PinProblem = { kind: 'invalid'; remainingAttempts?: number } | { kind: 'unreachable' };

/**
 * DESIGN §7: the PIN cannot open the information right now — locked for a while after 5 wrong
 * PINs (429, Retry-After) or disabled after 10 (423, or the `disabled` PIN status).
 */
export type PinBlock = { kind: 'locked'; retryAfterSeconds?: number } | { kind: 'disabled' };

export type EmergencyAccessState =
  | { step: 'loading' }
  | { step: 'not-found' }
  /** The lookup failed for another reason (offline, rate limit): say so and offer a retry. */
  | { step: 'unavailable'; message?: string }
  | {
      step: 'pin';
      kind: EmergencyKind;
      submitting: boolean;
      problem?: PinProblem;
      /** What an opted-in code shows without the PIN (DESIGN §7). */
      essentials?: EmergencyEssentials;
      block?: PinBlock;
    }
  /** `access`: the route and PIN that opened it, for the clinicians' FHIR download. */
  | { step: 'info'; info: EmergencyInfo; access?: { kind: EmergencyKind; pin: string } };

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** The 401's wrongPinSchema field, read by hand: this page loads without zod (get-emergency-info). */
function remainingAttemptsOf(error: ApiError): number | undefined {
  const body = error.body;
  if (typeof body !== 'object' || body === null || !('remainingAttempts' in body)) return undefined;
  return typeof body.remainingAttempts === 'number' ? body.remainingAttempts : undefined;
}

function blockOfStatus(answer: EmergencyAnswer): PinBlock | undefined {
  if (answer.pinStatus === 'locked') return { kind: 'locked' };
  if (answer.pinStatus === 'disabled') return { kind: 'disabled' };
  return undefined;
}

/** Which route answered for a share id, and how; `null` when neither knows it (404). */
export type EmergencyLookup = { kind: EmergencyKind; answer: EmergencyAnswer } | null;

/** The page's state after the first, PIN-less lookup (in the browser, or on the server for the first HTML). */
export function stateOfLookup(found: EmergencyLookup): EmergencyAccessState {
  if (!found) return { step: 'not-found' };
  if (!found.answer.body.requirePin) return { step: 'info', info: found.answer.body };
  const { essentials } = found.answer.body;
  const block = blockOfStatus(found.answer);
  return { step: 'pin', kind: found.kind, submitting: false, ...(essentials ? { essentials } : {}), ...(block ? { block } : {}) };
}

/** Asks the own-code route, then the family route; `null` when neither knows the id (404). */
async function lookUp(shareId: string, pin: string | undefined, order: EmergencyKind[], signal?: AbortSignal): Promise<EmergencyLookup> {
  for (const kind of order) {
    try {
      const answer = await getEmergencyInfo(kind, shareId, pin, signal);
      return { kind, answer };
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) continue;
      throw error;
    }
  }
  return null;
}

/**
 * SPEC §4 "Emergency page flow": on load ask whether the id is a person's own code, then a family
 * member's; neither is 'QR code not found or inactive'; `requirePin` decides whether the PIN
 * prompt shows; a correct PIN shows the data, with the family route tried when the own-code PIN
 * call answers 404. Never calls check-auth: the viewer has no session. An opted-in code's
 * essentials and PIN status (DESIGN §7) stay in the state through every PIN attempt.
 *
 * `initial`: the first lookup's answer when the server already made it for the page's first HTML
 * (DESIGN §7, the emergency entry point); the browser then asks again only on Try again.
 */
export function useEmergencyAccess(shareId: string, initial?: EmergencyLookup) {
  const [state, setState] = useState<EmergencyAccessState>(() => (initial === undefined ? { step: 'loading' } : stateOfLookup(initial)));
  const [attempt, setAttempt] = useState(0);
  const submitting = useRef(false);
  const answeredByServer = useRef(initial !== undefined);

  useEffect(() => {
    if (attempt === 0 && answeredByServer.current) return;
    const controller = new AbortController();
    setState({ step: 'loading' });
    lookUp(shareId, undefined, ['self', 'family'], controller.signal).then(
      (found) => setState(stateOfLookup(found)),
      (error: unknown) => {
        if (isAbort(error)) return;
        const message = error instanceof ApiError && error.status === 429 ? serverMessage(error) : undefined;
        setState({ step: 'unavailable', ...(message ? { message } : {}) });
      },
    );
    return () => controller.abort();
  }, [shareId, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  const submitPin = useCallback(
    async (pin: string) => {
      if (state.step !== 'pin' || submitting.current) return;
      const { kind, essentials } = state;
      const kept = essentials ? { essentials } : {};
      submitting.current = true;
      setState({ step: 'pin', kind, submitting: true, ...kept });
      try {
        const found = await lookUp(shareId, pin, kind === 'self' ? ['self', 'family'] : ['family']);
        if (!found) setState({ step: 'not-found' });
        else if (found.answer.body.requirePin) setState({ step: 'pin', kind, submitting: false, ...kept, problem: { kind: 'invalid' } });
        else setState({ step: 'info', info: found.answer.body, access: { kind: found.kind, pin } });
      } catch (error) {
        if (error instanceof ApiError && error.status === 429) {
          const seconds = error instanceof EmergencyApiError ? error.retryAfterSeconds : undefined;
          setState({
            step: 'pin',
            kind,
            submitting: false,
            ...kept,
            block: { kind: 'locked', ...(seconds ? { retryAfterSeconds: seconds } : {}) },
          });
        } else if (error instanceof ApiError && error.status === 423) {
          setState({ step: 'pin', kind, submitting: false, ...kept, block: { kind: 'disabled' } });
        } else if (error instanceof ApiError && error.status === 401) {
          const remainingAttempts = remainingAttemptsOf(error);
          setState({
            step: 'pin',
            kind,
            submitting: false,
            ...kept,
            problem: { kind: 'invalid', ...(remainingAttempts === undefined ? {} : { remainingAttempts }) },
          });
        } else {
          setState({ step: 'pin', kind, submitting: false, ...kept, problem: { kind: 'unreachable' } });
        }
      } finally {
        submitting.current = false;
      }
    },
    [shareId, state],
  );

  return { state, submitPin, retry };
}
