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
