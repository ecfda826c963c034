import { z } from 'zod';

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

export const signupSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
});
export type SignupInput = z.infer<typeof signupSchema>;

export const loginSchema = z.object({
  email: z.string({ message: 'Email is required' }).trim().max(254).transform((e) => e.toLowerCase()),
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

// Sessions you can see and re-authentication (DESIGN §5, docs/decisions/0024).

/** DESIGN §5: exporting everything and creating shares need the password within the last 10 minutes. */
export const REAUTH_WINDOW_MS = 10 * 60_000;
export const REAUTH_REQUIRED_MESSAGE = 'Please confirm your password to continue.';

/**
 * POST /api/auth/reauth. Only the password today; a passkey assertion will be a second shape of
 * this body (a union), answered the same way.
 */
export const reauthSchema = z.object({
  password: z.string({ message: 'Password is required' }).min(1, 'Password is required').max(PASSWORD_MAX),
});
export type ReauthInput = z.infer<typeof reauthSchema>;

export const reauthResponseSchema = z.object({
  message: z.string(),
  /** ISO-8601 instant until which this session counts as recently authenticated. */
  authenticated_until: z.string(),
});
export type ReauthResponse = z.infer<typeof reauthResponseSchema>;

/** The 401 of an action that needs a recent password: a prompt to confirm it, not a sign-out. */
export const reauthRequiredSchema = z.object({
  message: z.string(),
  reauth_required: z.literal(true),
});
export type ReauthRequired = z.infer<typeof reauthRequiredSchema>;

/** GET /api/auth/sessions: one of the signed-in user's live sessions. `id` opens nothing. */
export const sessionSchema = z.object({
  id: z.string(),
  /** The session this request came from. */
  current: z.boolean(),
  created_at: z.string(),
  last_seen_at: z.string(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
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
