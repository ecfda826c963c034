import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, serverMessage } from '../../../lib/api-client';
import { getEmergencyInfo, type EmergencyInfo, type EmergencyKind, type EmergencyResponse } from './get-emergency-info';

export const NOT_FOUND_TEXT = 'QR code not found or inactive';
export const INVALID_PIN_TEXT = 'Invalid PIN';
const LOCKED_TEXT = 'Too many incorrect PINs. Please try again later.';
const UNREACHABLE_TEXT = 'The emergency information could not be loaded. Check the connection and try again.';

export type EmergencyAccessState =
  | { step: 'loading' }
  | { step: 'not-found' }
  /** The lookup failed for another reason (offline, rate limit): say so and offer a retry. */
  | { step: 'unavailable'; message: string }
  | { step: 'pin'; kind: EmergencyKind; submitting: boolean; error?: string; remainingAttempts?: number }
  /** `access`: the route and PIN that opened it, for the clinicians' FHIR download (issue 7). */
  | { step: 'info'; info: EmergencyInfo; access?: { kind: EmergencyKind; pin: string } };

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

function remainingAttemptsOf(error: ApiError): number | undefined {
  const body = error.body;
  if (typeof body !== 'object' || body === null || !('remainingAttempts' in body)) return undefined;
  return typeof body.remainingAttempts === 'number' ? body.remainingAttempts : undefined;
}

/** Asks the own-code route, then the family route; `null` when neither knows the id (404). */
async function lookUp(shareId: string, pin: string | undefined, order: EmergencyKind[], signal?: AbortSignal) {
  for (const kind of order) {
    try {
      const answer: EmergencyResponse = await getEmergencyInfo(kind, shareId, pin, signal);
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
 * call answers 404. Never calls check-auth: the viewer has no session.
 */
export function useEmergencyAccess(shareId: string) {
  const [state, setState] = useState<EmergencyAccessState>({ step: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const submitting = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    setState({ step: 'loading' });
    lookUp(shareId, undefined, ['self', 'family'], controller.signal).then(
      (found) => {
        if (!found) setState({ step: 'not-found' });
        else if (found.answer.requirePin) setState({ step: 'pin', kind: found.kind, submitting: false });
        else setState({ step: 'info', info: found.answer });
      },
      (error: unknown) => {
        if (isAbort(error)) return;
        setState({ step: 'unavailable', message: (error instanceof ApiError && error.status === 429 && serverMessage(error)) || UNREACHABLE_TEXT });
      },
    );
    return () => controller.abort();
  }, [shareId, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  const submitPin = useCallback(
    async (pin: string) => {
      if (state.step !== 'pin' || submitting.current) return;
      const { kind } = state;
      submitting.current = true;
      setState({ step: 'pin', kind, submitting: true });
      try {
        const found = await lookUp(shareId, pin, kind === 'self' ? ['self', 'family'] : ['family']);
        if (!found) setState({ step: 'not-found' });
        else if (found.answer.requirePin) setState({ step: 'pin', kind, submitting: false, error: INVALID_PIN_TEXT });
        else setState({ step: 'info', info: found.answer, access: { kind: found.kind, pin } });
      } catch (error) {
        if (error instanceof ApiError && (error.status === 401 || error.status === 429)) {
          const remainingAttempts = error.status === 401 ? remainingAttemptsOf(error) : undefined;
          setState({
            step: 'pin',
            kind,
            submitting: false,
            error: serverMessage(error) ?? (error.status === 429 ? LOCKED_TEXT : INVALID_PIN_TEXT),
            ...(remainingAttempts === undefined ? {} : { remainingAttempts }),
          });
        } else {
          setState({ step: 'pin', kind, submitting: false, error: UNREACHABLE_TEXT });
        }
      } finally {
        submitting.current = false;
      }
    },
    [shareId, state],
  );

  return { state, submitPin, retry };
}
