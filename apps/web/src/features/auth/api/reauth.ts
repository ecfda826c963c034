import { reauthResponseSchema, type ReauthInput, type ReauthResponse } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';

/**
 * POST /api/auth/reauth: the password again, for actions that need a recent one (DESIGN §5). A
 * wrong password is 400; after 10 wrong ones the server ends the session and answers 429.
 */
export async function reauthenticate(input: ReauthInput): Promise<ReauthResponse> {
  return reauthResponseSchema.parse(await api.post('/api/auth/reauth', input));
}
