import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { AuthenticatorTransport } from '@simplewebauthn/server';
import type { PasskeyAssertion, PasskeyAttestation, PasskeySummary } from '@kinchart/shared/auth';
import type { Db } from '../../db/database';
import { conflict, badRequest, notFound } from '../../lib/http-errors';
import type { ChallengeBinding, ChallengePurpose } from './passkeys.repository';
import { createPasskeyRepository } from './passkeys.repository';

// Passkeys (DESIGN §5, docs/decisions/0027-passkeys.md): WebAuthn credentials with
// @simplewebauthn/server. Attestation is not asked for ("none"), so no metadata service is ever
// called: a passkey is trusted as the account's because the signed-in owner registered it.

const RP_NAME = 'Kinchart';
/** How long a challenge may be answered: WebAuthn's own timeout, with room for a slow tap. */
const CHALLENGE_TTL_MS = 5 * 60_000;
const CEREMONY_TIMEOUT_MS = 4 * 60_000;
/** More than anyone carries; a bound on the rows one account adds and on allowCredentials lists. */
export const MAX_PASSKEYS = 20;

const UNAVAILABLE = 'Passkeys need this server to be reached by a domain name (PUBLIC_URL), not an IP address.';
const REGISTRATION_FAILED = 'The passkey could not be added. Please try again.';
const ALREADY_REGISTERED = 'This passkey is already registered.';
const TOO_MANY = `An account can have at most ${MAX_PASSKEYS} passkeys. Remove one to add another.`;
const PASSKEY_NOT_FOUND = 'Passkey not found';

/** Where passkeys are scoped (WebAuthn §6.1): PUBLIC_URL's host name and origin. */
export interface RelyingParty {
  id: string;
  origin: string;
  /** Browsers refuse an IP address as the relying party id (WebAuthn §5.1.4.1 step 8). */
  available: boolean;
}

export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { id: host, origin: url.origin, available: isIP(host) === 0 };
}

/** WebAuthn's options for the browser (PublicKeyCredential{Creation,Request}OptionsJSON), sent as they are. */
export type WebauthnOptions = { challenge: string } & Record<string, unknown>;

/** What a passkey ceremony proved: whose passkey answered. */
export interface PasskeyProof {
  userId: string;
  passkeyId: string;
}

/**
 * The challenge inside a browser's clientDataJSON, read before any check so the row it names can be
 * spent; the library then checks it equals that row's (and everything else).
 */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    if (typeof data !== 'object' || data === null) return null;
    const challenge = (data as { challenge?: unknown }).challenge;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 128 ? challenge : null;
  } catch {
    return null;
  }
}

const summaryOf = (row: { id: string; name: string; created_at: string; last_used_at: string | null }): PasskeySummary => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at,
  last_used_at: row.last_used_at,
});

const transportsOf = (json: string | null): AuthenticatorTransport[] | undefined =>
  json ? (JSON.parse(json) as AuthenticatorTransport[]) : undefined;

export function createPasskeyService(deps: { db: Db; relyingParty: RelyingParty }) {
  const repo = createPasskeyRepository(deps.db);
  const rp = deps.relyingParty;

  function ensureAvailable() {
    if (!rp.available) throw conflict(UNAVAILABLE);
  }

  /** 32 random bytes, stored as the base64url the browser signs (clientDataJSON.challenge). */
  async function newChallenge(purpose: ChallengePurpose, binding: ChallengeBinding): Promise<Uint8Array<ArrayBuffer>> {
    const challenge = new Uint8Array(randomBytes(32));
    await repo.createChallenge(Buffer.from(challenge).toString('base64url'), purpose, binding, new Date(), CHALLENGE_TTL_MS);
    return challenge;
  }

  /** Spends the challenge an answer carries; false when it is not one handed out for this purpose and binding. */
  async function takeChallenge(clientDataJSON: string, purpose: ChallengePurpose, binding: ChallengeBinding): Promise<string | null> {
    const challenge = challengeOf(clientDataJSON);
    if (!challenge) return null;
    return (await repo.takeChallenge(challenge, purpose, binding, new Date())) ? challenge : null;
  }

  return {
    available: rp.available,

    async list(userId: string): Promise<PasskeySummary[]> {
      return (await repo.list(userId)).map(summaryOf);
    },

    count: (userId: string) => repo.count(userId),

    /** Options for adding a passkey to the signed-in account, whose session alone may answer them. */
    async registrationOptions(user: { id: string; email: string; username: string }, sessionId: string): Promise<WebauthnOptions> {
      ensureAvailable();
      const existing = await repo.list(user.id);
      if (existing.length >= MAX_PASSKEYS) throw conflict(TOO_MANY);
      const challenge = await newChallenge('register', { userId: user.id, sessionId });
      return {
        ...(await generateRegistrationOptions({
          rpName: RP_NAME,
          rpID: rp.id,
          // The user handle is the account's random id, never the email (WebAuthn §14.6.1).
          userID: new TextEncoder().encode(user.id),
          userName: user.email,
          userDisplayName: user.username,
          challenge,
          timeout: CEREMONY_TIMEOUT_MS,
          attestationType: 'none',
          // The same authenticator twice would be one factor counted as two.
          excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
          // A discoverable credential, so it can sign in alone; it verifies its user when it can.
          authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
        })),
      };
    },

    async register(userId: string, sessionId: string, name: string, response: PasskeyAttestation): Promise<PasskeySummary> {
      ensureAvailable();
      const challenge = await takeChallenge(response.response.clientDataJSON, 'register', { userId, sessionId });
      if (!challenge) throw badRequest(REGISTRATION_FAILED);
      let verification;
      try {
        verification = await verifyRegistrationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          requireUserVerification: false,
        });
      } catch {
        throw badRequest(REGISTRATION_FAILED);
      }
      const info = verification.registrationInfo;
      if (!verification.verified || !info) throw badRequest(REGISTRATION_FAILED);
      if (await repo.findByCredentialId(info.credential.id)) throw conflict(ALREADY_REGISTERED);
      if ((await repo.count(userId)) >= MAX_PASSKEYS) throw conflict(TOO_MANY);
      try {
        return await repo.insert({
          userId,
          credentialId: info.credential.id,
          publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
          counter: info.credential.counter,
          transports: info.credential.transports,
          name,
        });
      } catch (error) {
        // Two registrations of one authenticator racing: the unique index decides.
        if (await repo.findByCredentialId(info.credential.id)) throw conflict(ALREADY_REGISTERED);
        throw error;
      }
    },

    async rename(userId: string, id: string, name: string): Promise<void> {
      if (!(await repo.rename(userId, id, name))) throw notFound(PASSKEY_NOT_FOUND);
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!(await repo.remove(userId, id))) throw notFound(PASSKEY_NOT_FOUND);
    },

    /**
     * Options for proving a passkey. Signing in alone: any discoverable passkey of this site, which
     * must verify its user (the passkey is then both factors). The second step of a login and
     * re-authentication: one of that account's passkeys.
     */
    async assertionOptions(purpose: Exclude<ChallengePurpose, 'register'>, binding: ChallengeBinding): Promise<WebauthnOptions> {
      ensureAvailable();
      const mine = binding.userId ? await repo.list(binding.userId) : [];
      const challenge = await newChallenge(purpose, binding);
      return {
        ...(await generateAuthenticationOptions({
          rpID: rp.id,
          challenge,
          timeout: CEREMONY_TIMEOUT_MS,
          allowCredentials: mine.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
          userVerification: purpose === 'second_factor' ? 'preferred' : 'required',
        })),
      };
    },

    /**
     * Checks a passkey's answer to a challenge of this purpose and binding: the challenge is spent
     * first, then the signature, origin, relying party and signature counter are verified. With a
     * bound user, only that user's passkeys count. Null when anything does not hold.
     */
    async verifyAssertion(
      purpose: Exclude<ChallengePurpose, 'register'>,
      binding: ChallengeBinding,
      response: PasskeyAssertion,
    ): Promise<PasskeyProof | null> {
      if (!rp.available) return null;
      const challenge = await takeChallenge(response.response.clientDataJSON, purpose, binding);
      if (!challenge) return null;
      const passkey = await repo.findByCredentialId(response.id);
      if (!passkey || (binding.userId && passkey.user_id !== binding.userId)) return null;
      try {
        const { verified, authenticationInfo } = await verifyAuthenticationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          credential: {
            id: passkey.credential_id,
            publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
            counter: Number(passkey.counter),
            transports: transportsOf(passkey.transports),
          },
          requireUserVerification: purpose !== 'second_factor',
        });
        if (!verified) return null;
        await repo.recordUse(passkey.id, authenticationInfo.newCounter);
        return { userId: passkey.user_id, passkeyId: passkey.id };
      } catch {
        // A bad signature, another origin, a counter that went back (a cloned authenticator): no.
        return null;
      }
    },

    /** The account a passkey answer claims to be of, before anything is checked (for the attempt budget). */
    async claimedUser(response: PasskeyAssertion): Promise<string | null> {
      return (await repo.findByCredentialId(response.id))?.user_id ?? null;
    },
  };
}
export type PasskeyService = ReturnType<typeof createPasskeyService>;
