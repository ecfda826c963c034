import { z } from 'zod';
import { TOTP_CODE_MESSAGE } from './auth-texts';
import { NEXT_PATH_MAX, safeNextPath } from './next-path';
import { canonicalTimeZone, isTimeZone } from './care';

// SPEC §3 / §7 Authentication; DESIGN §5 password rules.
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

export const emailSchema = z
  .string()
  .trim()
  .max(254, 'Email must be at most 254 characters')
  .pipe(z.email({ message: 'Please enter a valid email address' }))
  .transform((email) => email.toLowerCase());

export const passwordSchema = z
  .string({ message: 'Password is required' })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

export const usernameSchema = z
  .string({ message: 'Username is required' })
  .trim()
  .min(1, 'Username is required')
  .max(100, 'Username must be at most 100 characters');

export const loginSchema = z.object({
  email: z
    .string({ message: 'Email is required' })
    .trim()
    .max(254)
    .transform((e) => e.toLowerCase()),
  password: z.string({ message: 'Password is required' }).max(PASSWORD_MAX),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const changePasswordSchema = z.object({
  currentPassword: z.string({ message: 'Current password is required' }).max(PASSWORD_MAX),
  newPassword: passwordSchema,
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export const changeEmailSchema = z.object({
  newEmail: emailSchema,
  password: z.string({ message: 'Password is required' }).max(PASSWORD_MAX),
});
export type ChangeEmailInput = z.infer<typeof changeEmailSchema>;

export const deleteAccountSchema = z.object({
  password: z.string({ message: 'Password is required' }).max(PASSWORD_MAX),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;

/** GET /api/auth/check-auth: who is signed in. */
export const authUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
});
export type AuthUser = z.infer<typeof authUserSchema>;

export const checkAuthResponseSchema = z.object({
  authenticated: z.literal(true),
  user: authUserSchema,
});
export type CheckAuthResponse = z.infer<typeof checkAuthResponseSchema>;

export const loginResponseSchema = z.object({ message: z.string(), user: authUserSchema });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

// Second factors (DESIGN §5, docs/decisions/0026-two-factor-authentication.md).

/** What can finish a login that asked for a second factor, in the order the login page offers them. */
export const mfaMethodSchema = z.enum(['passkey', 'totp', 'recovery_code']);
export type MfaMethod = z.infer<typeof mfaMethodSchema>;

/** POST /api/auth/login when the password was right and the account has a second factor: no session yet. */
export const mfaRequiredResponseSchema = z.object({ mfa_required: z.literal(true), methods: z.array(mfaMethodSchema) });

/** Every 200 answer of POST /api/auth/login: signed in, or a second step to go. */
export const loginAnswerSchema = z.union([loginResponseSchema, mfaRequiredResponseSchema]);
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;

/** A 6-digit TOTP code (RFC 6238); spaces some apps show in the middle are dropped. */
export const totpCodeSchema = z
  .string({ message: TOTP_CODE_MESSAGE })
  .transform((code) => code.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, TOTP_CODE_MESSAGE));

/** A recovery code as typed: case, spaces and hyphens do not matter (the server normalises it). */
export const recoveryCodeSchema = z
  .string({ message: 'Enter one of your recovery codes' })
  .trim()
  .min(1, 'Enter one of your recovery codes')
  .max(64, 'That is not a recovery code');

// WebAuthn's JSON forms of a credential (W3C WebAuthn L3 §5.1, what @simplewebauthn/browser sends).
// Only their shape is checked here; the server verifies their content. The bounds are generous for
// any real authenticator: a credential id is at most 1023 bytes (§5.8.3), 1364 in base64url; a
// signature may be post-quantum — @simplewebauthn 14 offers ML-DSA first where Node's WebCrypto has
// it (Node 24), and Chromium's authenticator takes it: ML-DSA-44 signs in 2,420 bytes, ML-DSA-87 in
// 4,627 (FIPS 204 table 2), 6,170 in base64url; its public key rides in the authenticator data.
const base64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, 'Not base64url');
const credentialId = base64url(1400);
const passkeyKinds = { type: z.literal('public-key'), clientExtensionResults: z.record(z.string(), z.unknown()).default({}) };
const attachment = z.enum(['platform', 'cross-platform']).optional();

/** A passkey's answer to a sign-in challenge (AuthenticationResponseJSON). */
export const passkeyAssertionSchema = z.object({
  id: credentialId,
  rawId: credentialId,
  ...passkeyKinds,
  authenticatorAttachment: attachment,
  response: z.object({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(4096),
    signature: base64url(6200),
    userHandle: base64url(128).optional(),
  }),
});
export type PasskeyAssertion = z.infer<typeof passkeyAssertionSchema>;

/** A new passkey's answer to a registration challenge (RegistrationResponseJSON). */
export const passkeyAttestationSchema = z.object({
  id: credentialId,
  rawId: credentialId,
  ...passkeyKinds,
  authenticatorAttachment: attachment,
  response: z.object({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(16384),
    authenticatorData: base64url(8192).optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(4096).optional(),
  }),
});
export type PasskeyAttestation = z.infer<typeof passkeyAttestationSchema>;

/**
 * POST /api/auth/login/mfa: exactly one of the second factors the login answer offered — a code,
 * a recovery code or a passkey's assertion.
 */
export const loginMfaSchema = z
  .object({ code: totpCodeSchema.optional(), recovery_code: recoveryCodeSchema.optional(), passkey: passkeyAssertionSchema.optional() })
  .refine((input) => [input.code, input.recovery_code, input.passkey].filter((given) => given !== undefined).length === 1, {
    message: 'Enter a code from your authenticator app or a recovery code',
  });
export type LoginMfaInput = z.infer<typeof loginMfaSchema>;

/** POST /api/auth/mfa/totp/setup: a new secret, not yet on, to show as a QR code and as text. */
export const totpSetupResponseSchema = z.object({ secret: z.string(), otpauth_url: z.string() });
export type TotpSetupResponse = z.infer<typeof totpSetupResponseSchema>;

/** POST /api/auth/mfa/totp/confirm: a code from the new secret turns TOTP on. */
export const totpConfirmSchema = z.object({ code: totpCodeSchema });
export type TotpConfirmInput = z.infer<typeof totpConfirmSchema>;

export const RECOVERY_CODE_COUNT = 10;

/** A fresh set of single-use recovery codes, shown once. */
export const recoveryCodesResponseSchema = z.object({ recovery_codes: z.array(z.string()).length(RECOVERY_CODE_COUNT) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;

export const PASSKEY_NAME_MAX = 60;
export const passkeyNameSchema = z
  .string({ message: 'Passkey name is required' })
  .trim()
  .min(1, 'Passkey name is required')
  .max(PASSKEY_NAME_MAX, `Passkey name must be at most ${PASSKEY_NAME_MAX} characters`);

/** POST /api/auth/mfa/passkeys: the new passkey's name and its answer to the registration challenge. */
export const passkeyRegisterSchema = z.object({ name: passkeyNameSchema, response: passkeyAttestationSchema });

/** PUT /api/auth/mfa/passkeys/{id}: a new name. */
export const passkeyRenameSchema = z.object({ name: passkeyNameSchema });

/** WebAuthn options for the browser (PublicKeyCredential{Creation,Request}OptionsJSON), passed through as they are. */
export const webauthnOptionsSchema = z.looseObject({ challenge: z.string() });

/** POST /api/auth/login/passkey: a discoverable passkey signs in alone. */
export const passkeyLoginSchema = z.object({ response: passkeyAssertionSchema });

export const passkeySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type PasskeySummary = z.infer<typeof passkeySummarySchema>;

/** GET /api/auth/mfa: which second factors the account has. */
export const mfaStatusSchema = z.object({
  totp: z.boolean(),
  passkeys: z.array(passkeySummarySchema),
  recovery_codes_left: z.number().int().nonnegative(),
});
export type MfaStatus = z.infer<typeof mfaStatusSchema>;
/**
 * SIGNUP_MODE (README Configuration): `open` lets anyone sign up; `invite` only someone who came
 * through a person-share invitation link (DESIGN §11), whose token the sign-up carries; `closed`
 * nobody. Told to the web app by GET /api/config.
 */
export const SIGNUP_MODES = ['open', 'invite', 'closed'] as const;
export const signupModeSchema = z.enum(SIGNUP_MODES);
export type SignupMode = z.infer<typeof signupModeSchema>;

export const SIGNUP_INVITE_ONLY = 'Sign-up is by invitation only.';
export const SIGNUP_CLOSED = 'Sign-up is closed on this server.';

/** A token this app made (32 random bytes as base64url, 43 characters, DESIGN §5); the server checks its form. */
const issuedTokenSchema = z.string().max(100);

/** POST /api/auth/signup: SPEC §7's three fields, and the invitation's token under SIGNUP_MODE=invite. */
export const signupSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
  invitation: issuedTokenSchema.optional(),
  /**
   * Issue 32: the browser's IANA zone, which becomes the account's. One the server does not know
   * is left out rather than refusing the sign-up (the account then reads as UTC until set).
   */
  time_zone: z
    .unknown()
    .transform((v) => (typeof v === 'string' && isTimeZone(v) ? canonicalTimeZone(v) : undefined))
    .optional(),
});
export type SignupInput = z.infer<typeof signupSchema>;

/** A password reset link lives 30 minutes and opens once (docs/decisions/0025). */
export const PASSWORD_RESET_TTL_MINUTES = 30;

/** POST /api/auth/forgot-password: always 202 with this one answer, whether or not the account exists. */
export const forgotPasswordSchema = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;
export const FORGOT_PASSWORD_ANSWER = 'If an account uses this email, a link to reset its password is on its way.';

/** POST /api/auth/reset-password: the link's token and the new password, under the sign-up rules. */
export const resetPasswordSchema = z.object({
  token: issuedTokenSchema,
  newPassword: passwordSchema,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;
export const PASSWORD_RESET_DONE = 'Your password has been reset. Please log in with your new password.';

/** GET /api/auth/reset-password?token=…: the reset page asks, as it opens, whether its link still works. */
export const resetLinkQuerySchema = z.object({ token: issuedTokenSchema });
export const resetLinkStatusSchema = z.object({ valid: z.literal(true), expires_at: z.string() });
export type ResetLinkStatus = z.infer<typeof resetLinkStatusSchema>;

// Proving an email (DESIGN §5, docs/decisions/0030).

/** An emailed confirmation link lives a day and opens once. */
export const EMAIL_VERIFICATION_TTL_HOURS = 24;

/** POST /api/auth/verify-email: the token of the emailed link (no session needed). */
export const verifyEmailSchema = z.object({ token: issuedTokenSchema });
export type VerifyEmailInput = z.infer<typeof verifyEmailSchema>;
export const EMAIL_VERIFIED = 'Thank you! Your email address is confirmed.';

/** GET /api/auth/email-verification: whether the account's email is proven, and whether this server can send a link. */
export const emailVerificationStatusSchema = z.object({ email: z.string(), verified: z.boolean(), can_send: z.boolean() });
export type EmailVerificationStatus = z.infer<typeof emailVerificationStatusSchema>;
/** POST /api/auth/email-verification: 202, a new link is on its way. */
export const VERIFICATION_SENT = 'A new confirmation link is on its way to your email address.';

// Sessions you can see and re-authentication (DESIGN §5, docs/decisions/0024).

/** DESIGN §5: exporting everything and creating shares need the password within the last 10 minutes. */
export const REAUTH_WINDOW_MS = 10 * 60_000;
export const REAUTH_REQUIRED_MESSAGE = 'Please confirm your password to continue.';

/** POST /api/auth/reauth: the password, or one of the account's passkeys; answered the same way. */
export const reauthSchema = z
  .object({
    password: z.string({ message: 'Password is required' }).min(1, 'Password is required').max(PASSWORD_MAX).optional(),
    passkey: passkeyAssertionSchema.optional(),
  })
  .refine((input) => (input.password === undefined) !== (input.passkey === undefined), { message: 'Password is required' });
export type ReauthInput = z.infer<typeof reauthSchema>;

export const reauthResponseSchema = z.object({
  message: z.string(),
  /** ISO-8601 instant until which this session counts as recently authenticated. */
  authenticated_until: z.string(),
});
export type ReauthResponse = z.infer<typeof reauthResponseSchema>;

/** GET /api/auth/sessions: one of the signed-in user's live sessions. `id` opens nothing. */
export const sessionSchema = z.object({
  id: z.string(),
  /** The session this request came from. */
  current: z.boolean(),
  created_at: z.string(),
  last_seen_at: z.string(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  /** A browser subscribed to reminders in this session: signing it out stops them (docs/decisions/0044). */
  reminders: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionSchema>;

/** The current session first, then the newest. */
export const sessionsSchema = z.array(sessionSchema);

/** DELETE /api/auth/sessions/{id}; `current`: it was this session, so the caller is signed out. */
export const endSessionResponseSchema = z.object({ message: z.string(), current: z.boolean() });
export type EndSessionResponse = z.infer<typeof endSessionResponseSchema>;

/** DELETE /api/auth/sessions: every other session ended. */
export const endOtherSessionsResponseSchema = z.object({ message: z.string(), ended: z.number().int().nonnegative() });
export type EndOtherSessionsResponse = z.infer<typeof endOtherSessionsResponseSchema>;

// Single sign-on with OpenID Connect (docs/decisions/0029-single-sign-on.md).

/** What a single sign-on is for: signing in, or re-authenticating the session it starts from (DESIGN §5). */
export const SSO_PURPOSES = ['login', 'reauth'] as const;
export const ssoPurposeSchema = z.enum(SSO_PURPOSES, { message: 'purpose must be login or reauth' });
export type SsoPurpose = z.infer<typeof ssoPurposeSchema>;

/** POST /api/auth/oidc/start. `next`: where to land afterwards, a path on this site only. */
export const ssoStartSchema = z.object({
  purpose: ssoPurposeSchema,
  next: z
    .string()
    .max(NEXT_PATH_MAX, 'next is too long')
    .refine((value) => safeNextPath(value) !== null, 'next must be a path on this site')
    .optional(),
});
export type SsoStartInput = z.infer<typeof ssoStartSchema>;

/** The identity provider's authorization address to send the browser to. */
export const ssoStartResponseSchema = z.object({ url: z.string() });

/**
 * GET /api/auth/oidc/link: a single sign-on whose verified email names an account here whose email
 * is not proven waits for that account's password (docs/decisions/0030); this says which address
 * and which provider, for the page that asks.
 */
export const ssoLinkInfoSchema = z.object({ email: z.string(), provider: z.string() });
export type SsoLinkInfo = z.infer<typeof ssoLinkInfoSchema>;
/** POST /api/auth/oidc/link: the account's password; answered like a login. */
export const ssoLinkSchema = z.object({
  password: z.string({ message: 'Password is required' }).min(1, 'Password is required').max(PASSWORD_MAX),
});
export type SsoLinkInput = z.infer<typeof ssoLinkSchema>;

/**
 * GET /api/auth/oidc/callback as the identity provider sends the browser back (OpenID Connect Core
 * 3.1.2.5, 3.1.2.6; RFC 9207's `iss`). Only lengths are checked here: openid-client checks the rest,
 * and any failure is a redirect with a short code, not a JSON error a person would see raw.
 */
export const ssoCallbackQuerySchema = z
  .object({
    state: z.string().max(512).optional(),
    code: z.string().max(4096).optional(),
    iss: z.string().max(2048).optional(),
    error: z.string().max(256).optional(),
    error_description: z.string().max(2048).optional(),
    session_state: z.string().max(1024).optional(),
  })
  .loose();
export type SsoCallbackQuery = z.infer<typeof ssoCallbackQuerySchema>;
