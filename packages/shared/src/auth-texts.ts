// Texts and codes of the login's second step, without zod: /login loads without it (decision 0017),
// so the page imports these from here while auth.ts builds its schemas on them.

export const TOTP_CODE_MESSAGE = 'Enter the 6-digit code from your authenticator app';

/** The `error` field of the 401 that says the pending login is gone (expired or finished): start again with the password. */
export const LOGIN_EXPIRED_ERROR = 'login_expired';
