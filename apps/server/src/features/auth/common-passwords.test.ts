import { describe, expect, it } from 'vitest';
import { isCommonPassword, isTrivialPattern } from './common-passwords';

describe('isCommonPassword', () => {
  it('refuses passwords on the shipped list, in any case', async () => {
    for (const password of ['password', 'Password1', 'qwerty123456', 'iloveyou', 'football', 'sunshine', 'kinchart1', 'PASSW0RD']) {
      expect(await isCommonPassword(password), password).toBe(true);
    }
  });

  it('refuses one repeated character and straight runs, at any length', async () => {
    for (const password of ['aaaaaaaa', '00000000000000', '123456789012', '9876543210', 'abcdefghij', 'ZYXWVUTSRQ']) {
      expect(await isCommonPassword(password), password).toBe(true);
    }
  });

  it('accepts what is neither', async () => {
    for (const password of ['correct horse battery staple', 'Tr1cky-Kestrel-48', 'abcdefgz', '13579bdf', 'zyx-wvut', '9:;<=>?@']) {
      expect(await isCommonPassword(password), password).toBe(false);
    }
  });
});

describe('isTrivialPattern', () => {
  it('needs the same step all the way, within digits or letters', () => {
    expect(isTrivialPattern('abcd')).toBe(true);
    expect(isTrivialPattern('abce')).toBe(false);
    expect(isTrivialPattern('89:;')).toBe(false);
    expect(isTrivialPattern('----')).toBe(true);
  });
});
