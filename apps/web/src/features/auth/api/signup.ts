import { useMutation } from '@tanstack/react-query';
import type { MessageResponse } from '@kinchart/shared/common';
import type { SignupInput } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';

/** POST /api/auth/signup → 201 { message }. */
export function signup(input: SignupInput): Promise<MessageResponse> {
  return api.post<MessageResponse>('/api/auth/signup', input);
}

export function useSignup() {
  return useMutation({ mutationFn: signup });
}
