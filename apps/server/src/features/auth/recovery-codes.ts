import { randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@kinchart/shared/auth';
import { sha256Hex } from '../../lib/ids';

// Recovery codes (DESIGN §5, ASVS 6.5.1): 12 characters from a 32-character alphabet — 60 random
// bits — shown as `abcd-efgh-ijkl`. The alphabet leaves out l and o, and the digits 0 and 1, so
// nothing reads as something else on paper. With that much entropy an unsalted SHA-256 is enough to
// keep a copy of the table from giving the codes away (NIST SP 800-63B §5.1.1.2 asks a salted slow
// hash only of memorised secrets a person chose).

const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const LENGTH = 12;

export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i += 1) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`;
}

export const newRecoveryCodes = (): string[] => Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);

/** Case, spaces and hyphens do not matter; anything else that is not of the alphabet makes it no code. */
export function normaliseRecoveryCode(typed: string): string | null {
  const code = typed.toLowerCase().replace(/[\s-]+/g, '');
  return code.length === LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

/** The stored form of a code, typed or fresh. */
export function recoveryCodeHash(code: string): string | null {
  const normal = normaliseRecoveryCode(code);
  return normal === null ? null : sha256Hex(normal);
}
