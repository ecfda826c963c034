import { useMutation } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import type { SignupInput } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';

/** POST /api/auth/signup → 201 { message }. */
export async function signup(input: SignupInput): Promise<MessageResponse> {
  return messageSchema.parse(await api.post('/api/auth/signup', input));
}

export function useSignup() {
  return useMutation({ mutationFn: signup });
}
