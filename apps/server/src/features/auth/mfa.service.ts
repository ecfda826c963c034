import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { LoginMfaInput, MfaMethod, MfaStatus, TotpSetupResponse } from '@kinchart/shared/auth';
import type { Db } from '../../db/database';
import { recordAudit } from '../../common/audit';
import { badRequest, conflict } from '../../lib/http-errors';
import { randomToken, sha256Hex } from '../../lib/ids';
import { openSecret, sealSecret, totpAssociatedData } from '../../storage/sealed-secret';
import { createMfaRepository } from './mfa.repository';
import type { PasskeyService } from './passkeys.service';
import { newRecoveryCodes, recoveryCodeHash } from './recovery-codes';

// Second factors (DESIGN §5, docs/decisions/0026-two-factor-authentication.md): TOTP per RFC 6238
// with the parameters every authenticator app reads from an otpauth:// URL without asking (SHA-1,
// 6 digits, 30 s), single-use recovery codes, and the pending login between the two steps.

const ISSUER = 'Kinchart';
const PERIOD = 30;
/** RFC 6238 §5.2: one step either side allows for clock drift and a code typed as it changed. */
const WINDOW = 1;
/** 160 bits, the HMAC-SHA-1 output size RFC 4226 §4 recommends (32 base32 characters). */
const SECRET_BYTES = 20;
/** How long the second step may take after a right password. */
export const PENDING_LOGIN_MS = 5 * 60_000;
const TOTP_PARAMS = { algorithm: 'SHA1', digits: 6, period: PERIOD } as const;

const secretOf = (bytes: Buffer) => new Secret({ buffer: new Uint8Array(bytes).buffer });

const INVALID_SETUP_CODE = 'That code did not match. Check the time on your phone and try the newest code.';
const NO_SETUP = 'Start the set-up again: there is no authenticator waiting for a code.';
const ALREADY_ON = 'Two-factor authentication is already on. Turn it off first to set up another authenticator.';
const NOT_ON = 'There is no second factor on, so there are no recovery codes to replace.';

export interface RequestMeta {
  ip: string;
}

export function createMfaService(deps: { db: Db; masterKey: Buffer; passkeys: PasskeyService }) {
  const repo = createMfaRepository(deps.db);
  const { passkeys } = deps;
  const totpOn = async (userId: string) => !!(await repo.findTotp(userId))?.enabled_at;
  /** Whether a right password must be followed by a second step: TOTP is on or a passkey is registered. */
  const required = async (userId: string) => (await totpOn(userId)) || (await passkeys.count(userId)) > 0;

  /** The time step a code belongs to, or null when it matches none within the window. */
  function matchingStep(secret: Buffer, code: string, now: Date): number | null {
    const delta = TOTP.validate({ token: code, secret: secretOf(secret), ...TOTP_PARAMS, timestamp: now.getTime(), window: WINDOW });
    return delta === null ? null : TOTP.counter({ period: PERIOD, timestamp: now.getTime() }) + delta;
  }

  const open = (factor: { user_id: string; wrapped_key: string; secret_sealed: string }) =>
    openSecret(deps.masterKey, { wrappedKey: factor.wrapped_key, sealed: factor.secret_sealed }, totpAssociatedData(factor.user_id));

  function freshRecoveryCodes(): { codes: string[]; hashes: string[] } {
    const codes = newRecoveryCodes();
    return { codes, hashes: codes.map((code) => recoveryCodeHash(code) as string) };
  }

  return {
    async status(userId: string): Promise<MfaStatus> {
      return {
        totp: await totpOn(userId),
        passkeys: await passkeys.list(userId),
        recovery_codes_left: await repo.countRecoveryCodesLeft(userId),
      };
    },

    required,

    /** The methods a second step may use, in the order the login page offers them. */
    async methods(userId: string): Promise<MfaMethod[]> {
      const methods: MfaMethod[] = [];
      if ((await passkeys.count(userId)) > 0) methods.push('passkey');
      if (await totpOn(userId)) methods.push('totp');
      methods.push('recovery_code');
      return methods;
    },

    /**
     * After a passkey is added: the first second factor of the account brings recovery codes, shown
     * once (a lost passkey must not lock the owner out). Null when the account had them already.
     */
    async passkeyAdded(userId: string, passkeyId: string, meta: RequestMeta): Promise<string[] | null> {
      await recordAudit(deps.db, { userId, action: 'mfa_passkey_add', ip: meta.ip, detail: { passkey_id: passkeyId } });
      if ((await totpOn(userId)) || (await passkeys.count(userId)) > 1) return null;
      const { codes, hashes } = freshRecoveryCodes();
      await repo.replaceRecoveryCodes(userId, hashes);
      return codes;
    },

    /** After a passkey is removed: with no second factor left, the recovery codes go too. */
    async passkeyRemoved(userId: string, passkeyId: string, meta: RequestMeta): Promise<void> {
      await recordAudit(deps.db, { userId, action: 'mfa_passkey_remove', ip: meta.ip, detail: { passkey_id: passkeyId } });
      if (!(await totpOn(userId)) && (await passkeys.count(userId)) === 0) await repo.deleteRecoveryCodes(userId);
    },

    async setupTotp(userId: string, email: string): Promise<TotpSetupResponse> {
      if ((await repo.findTotp(userId))?.enabled_at) throw conflict(ALREADY_ON);
      const secret = randomBytes(SECRET_BYTES);
      await repo.savePendingTotp(userId, sealSecret(deps.masterKey, secret, totpAssociatedData(userId)));
      const totp = new TOTP({ issuer: ISSUER, label: email, secret: secretOf(secret), ...TOTP_PARAMS });
      return { secret: totp.secret.base32, otpauth_url: totp.toString() };
    },

    async confirmTotp(userId: string, code: string, meta: RequestMeta): Promise<string[]> {
      const factor = await repo.findTotp(userId);
      if (factor?.enabled_at) throw conflict(ALREADY_ON);
      if (!factor) throw badRequest(NO_SETUP);
      const step = matchingStep(open(factor), code, new Date());
      if (step === null) throw badRequest(INVALID_SETUP_CODE);
      const { codes, hashes } = freshRecoveryCodes();
      // The confirming code is spent too: it cannot sign in a second time.
      if (!(await repo.enableTotp(factor.id, userId, step, hashes))) throw badRequest(NO_SETUP);
      await recordAudit(deps.db, { userId, action: 'mfa_totp_enable', ip: meta.ip });
      return codes;
    },

    async disableTotp(userId: string, meta: RequestMeta): Promise<void> {
      const wasOn = await totpOn(userId);
      // The recovery codes stay while a passkey remains a second factor (decision 0027).
      await repo.deleteTotp(userId, { keepRecoveryCodes: (await passkeys.count(userId)) > 0 });
      if (wasOn) await recordAudit(deps.db, { userId, action: 'mfa_totp_disable', ip: meta.ip });
    },

    async replaceRecoveryCodes(userId: string, meta: RequestMeta): Promise<string[]> {
      if (!(await required(userId))) throw conflict(NOT_ON);
      const { codes, hashes } = freshRecoveryCodes();
      await repo.replaceRecoveryCodes(userId, hashes);
      await recordAudit(deps.db, { userId, action: 'mfa_recovery_codes_new', ip: meta.ip });
      return codes;
    },

    /**
     * Checks one second factor of a login. A TOTP code counts once: its time step must be later than
     * the last one used. A recovery code is spent. A passkey answers the challenge handed to this
     * pending login. Null when it does not match; `used_code` for a right TOTP code whose time step
     * was already used (or is older than one used), so the person can be told to wait for the next.
     */
    async verify(userId: string, pendingLoginId: string, input: LoginMfaInput, meta: RequestMeta): Promise<MfaMethod | 'used_code' | null> {
      if (input.passkey !== undefined) {
        return (await passkeys.verifyAssertion('second_factor', { userId, pendingLoginId }, input.passkey)) ? 'passkey' : null;
      }
      if (input.code !== undefined) {
        const factor = await repo.findTotp(userId);
        if (!factor?.enabled_at) return null;
        const step = matchingStep(open(factor), input.code, new Date());
        if (step === null) return null;
        return (await repo.useTotpStep(userId, step)) ? 'totp' : 'used_code';
      }
      if (input.recovery_code !== undefined) {
        const hash = recoveryCodeHash(input.recovery_code);
        if (hash === null || !(await repo.useRecoveryCode(userId, hash))) return null;
        const left = await repo.countRecoveryCodesLeft(userId);
        await recordAudit(deps.db, { userId, action: 'mfa_recovery_code_use', ip: meta.ip, detail: { left } });
        return 'recovery_code';
      }
      return null;
    },

    /** After a right password: a pending login for the second step, and the cookie's token for it. */
    async beginLogin(userId: string): Promise<string> {
      const token = randomToken();
      await repo.createPendingLogin(sha256Hex(token), userId, new Date(), PENDING_LOGIN_MS);
      return token;
    },

    /** The pending login of a cookie's token, while it lasts. */
    async pendingLogin(token: string): Promise<{ id: string; userId: string } | null> {
      const id = sha256Hex(token);
      const row = await repo.findPendingLogin(id);
      if (!row) return null;
      if (Date.parse(row.expires_at) <= Date.now()) {
        await repo.deletePendingLogin(id);
        return null;
      }
      return { id, userId: row.user_id };
    },

    async endPendingLogin(id: string): Promise<boolean> {
      return repo.deletePendingLogin(id);
    },
  };
}
export type MfaService = ReturnType<typeof createMfaService>;
