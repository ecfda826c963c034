import { useMutation, useQuery } from '@tanstack/react-query';
import { emailVerificationStatusSchema, type EmailVerificationStatus } from '@kinchart/shared/auth';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';

export const emailVerificationQueryKey = ['email-verification'] as const;

/** GET /api/auth/email-verification: whether the account's email is proven (docs/decisions/0030). */
export async function fetchEmailVerification(signal?: AbortSignal): Promise<EmailVerificationStatus> {
  return emailVerificationStatusSchema.parse(await api.get('/api/auth/email-verification', { signal }));
}

export function useEmailVerification() {
  return useQuery({ queryKey: emailVerificationQueryKey, queryFn: ({ signal }) => fetchEmailVerification(signal) });
}

/** POST /api/auth/email-verification → 202 { message }: a new link to the account's email. */
export async function sendVerificationLink(): Promise<MessageResponse> {
  return messageSchema.parse(await api.post('/api/auth/email-verification'));
}

export function useSendVerificationLink() {
  return useMutation({ mutationFn: sendVerificationLink });
}
