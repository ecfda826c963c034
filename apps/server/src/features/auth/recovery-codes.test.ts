import { describe, expect, it } from 'vitest';
import { newRecoveryCodes, normaliseRecoveryCode, recoveryCodeHash } from './recovery-codes';

describe('recovery codes', () => {
  it('come ten at a time, all different, shaped abcd-efgh-ijkl from an alphabet without look-alikes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-km-np-z2-9]{4}-[a-km-np-z2-9]{4}-[a-km-np-z2-9]{4}$/);
  });

  it('are read whatever the case, spaces and hyphens, and hash the same', () => {
    const [code] = newRecoveryCodes();
    const typed = ` ${code!.toUpperCase().replace(/-/g, ' ')} `;
    expect(normaliseRecoveryCode(typed)).toBe(code!.replace(/-/g, ''));
    expect(recoveryCodeHash(typed)).toBe(recoveryCodeHash(code!));
    expect(recoveryCodeHash(code!)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuse what cannot be a code', () => {
    expect(normaliseRecoveryCode('abcd-efgh-ijk')).toBeNull();
    expect(normaliseRecoveryCode('abcd-efgh-ijk0')).toBeNull();
    expect(recoveryCodeHash('not a code at all')).toBeNull();
  });
});
