import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { PasskeyAssertion, PasskeyAttestation } from '@kinchart/shared/auth';
import { api } from './api-client';

// The browser's side of a passkey ceremony (docs/decisions/0027-passkeys.md): the server hands out
// options with a fresh challenge, @simplewebauthn/browser asks the authenticator, the answer goes
// back. The library is loaded only when a passkey is used, so /login stays small (decision 0017).

/** Whether this browser can use passkeys at all (WebAuthn, W3C Level 3). */
export function browserHasPasskeys(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** The person closed the browser's passkey window, or it timed out: no error to shout about. */
export class PasskeyCancelled extends Error {}

export const PASSKEY_CANCELLED = 'The passkey request was cancelled or timed out.';
const ALREADY_ON_DEVICE = 'This device already holds a passkey for your account.';
const BROWSER_FAILED = 'Your browser could not use a passkey. Please try again.';

/** What a failed ceremony means to the person (WebAuthn §6.3.2, §6.3.3 error names). */
function ceremonyError(error: unknown): Error {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED')
    return new PasskeyCancelled(PASSKEY_CANCELLED);
  if (name === 'InvalidStateError' || code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return new Error(ALREADY_ON_DEVICE);
  return new Error(BROWSER_FAILED);
}

/** A passkey's answer to the challenge from `optionsPath` (sign in, second step, or re-authentication). */
export async function provePasskey(optionsPath: string): Promise<PasskeyAssertion> {
  const optionsJSON = await api.post<PublicKeyCredentialRequestOptionsJSON>(optionsPath);
  const { startAuthentication } = await import('@simplewebauthn/browser');
  try {
    return (await startAuthentication({ optionsJSON })) as unknown as PasskeyAssertion;
  } catch (error) {
    throw ceremonyError(error);
  }
}

/** A new passkey for the signed-in account (the options call may first ask to confirm the password). */
export async function createPasskey(): Promise<PasskeyAttestation> {
  const optionsJSON = await api.post<PublicKeyCredentialCreationOptionsJSON>('/api/auth/mfa/passkeys/options');
  const { startRegistration } = await import('@simplewebauthn/browser');
  try {
    return (await startRegistration({ optionsJSON })) as unknown as PasskeyAttestation;
  } catch (error) {
    throw ceremonyError(error);
  }
}
