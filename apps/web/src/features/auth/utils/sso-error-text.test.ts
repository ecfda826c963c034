import { describe, expect, it } from 'vitest';
import { SSO_ERRORS, ssoErrorText } from '@kinchart/shared/auth-texts';
import { ssoErrorMessage } from './sso-error-text';

describe('single sign-on failure words', () => {
  it('are, in English, the shared table’s words for every code', () => {
    for (const code of Object.keys(SSO_ERRORS)) expect(ssoErrorMessage(code)).toBe(ssoErrorText(code));
  });

  it('give the general failure for an unknown code, and nothing without one', () => {
    expect(ssoErrorMessage('made_up')).toBe(SSO_ERRORS.failed);
    expect(ssoErrorMessage(null)).toBeNull();
    expect(ssoErrorMessage('')).toBeNull();
  });
});
