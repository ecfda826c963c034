import { z } from 'zod';
import { signupModeSchema } from './auth';

/**
 * GET /api/config (public): what the web app needs to know of this server's configuration before
 * it sends anything. The upload limit is MAX_UPLOAD_MB in bytes (DESIGN §1: configurable), so it
 * is read, never built in; the sign-up mode is SIGNUP_MODE, so the sign-up page can say sign-up
 * is closed instead of offering a form the server refuses; the single sign-on button's name, so
 * /login offers it only when the server has one. Nothing here is about an account.
 */
export const clientConfigSchema = z.object({
  max_upload_bytes: z.number().int().positive(),
  signup_mode: signupModeSchema,
  /** Whether passkeys work here: browsers refuse them on a server reached by an IP address. */
  passkeys: z.boolean(),
  /**
   * Single sign-on (OIDC_ISSUER …, docs/decisions/0029): the name the buttons show ("Sign in with
   * {name}", OIDC_NAME), or null when the server has none.
   */
  sso: z.object({ name: z.string() }).nullable().default(null),
  /** Web Push (issue 32): the server's VAPID public key (base64url), the browser's applicationServerKey. */
  vapid_public_key: z.string().default(''),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
