// Texts and codes of the login's second step, without zod: /login loads without it (decision 0017),
// so the page imports these from here while auth.ts builds its schemas on them.

export const TOTP_CODE_MESSAGE = 'Enter the 6-digit code from your authenticator app';

/** A TOTP code whose time step was already used (or is older than one used): say so, not just "invalid". */
export const TOTP_CODE_USED = 'This code has already been used. Please wait for the next code from your authenticator app.';

/** The `error` field of the 401 that says the pending login is gone (expired or finished): start again with the password. */
export const LOGIN_EXPIRED_ERROR = 'login_expired';

// Single sign-on with OpenID Connect (docs/decisions/0029). Zod-free for the same reason.

/** The query parameter of /login that opens the login at its second step, listing the methods (comma-separated). */
export const SECOND_FACTOR_PARAM = 'second_factor';
/** The query parameter that carries a single sign-on failure's short code back to the page. */
export const SSO_ERROR_PARAM = 'sso_error';
/** Set on the page a re-authentication through single sign-on came back to, once it worked. */
export const SSO_CONFIRMED_PARAM = 'sso';
export const SSO_CONFIRMED_VALUE = 'confirmed';

/**
 * Where single sign-on sends a person whose provider email names an account here whose email is
 * not proven: that account's password links the two (docs/decisions/0030).
 */
export const SSO_LINK_PATH = '/link-account';

/** OIDC_NAME when unset: the button reads "Sign in with SSO". */
export const DEFAULT_SSO_NAME = 'SSO';

/** Why a single sign-on did not sign anyone in: the codes the callback sends back, and their words. */
export const SSO_ERRORS = {
  expired: 'That sign-in took too long or was already used. Please try again.',
  browser: 'Single sign-on must finish in the browser where it started. Please try again here.',
  denied: 'Sign-in was cancelled at your identity provider.',
  failed: 'Single sign-on could not be completed. Please try again.',
  unverified: 'Your identity provider did not confirm your email address, so it cannot sign you in here.',
  no_account: 'No account here uses your email address, and this server does not create accounts through single sign-on.',
  unavailable: 'Single sign-on is not available right now. Please try again later, or log in with your password.',
  other_account: 'That sign-in belongs to another account. Confirm with the account you are signed in with.',
  limited: 'Too many sign-in attempts. Please try again in 15 minutes.',
  session: 'Your session has ended. Please log in again.',
} as const;
export type SsoErrorCode = keyof typeof SSO_ERRORS;

/** The words for a code read from an address: an unknown code gets the general failure. */
export function ssoErrorText(code: string | null | undefined): string | null {
  if (!code) return null;
  return Object.hasOwn(SSO_ERRORS, code) ? SSO_ERRORS[code as SsoErrorCode] : SSO_ERRORS.failed;
}
