import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordInput } from '@kinchart/shared/auth';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';

/** PUT /api/auth/changePassword — the answer's message is shown (SPEC §7). Other sessions end (DESIGN §5). */
export async function changePassword(input: ChangePasswordInput): Promise<MessageResponse> {
  return messageSchema.parse(await api.put('/api/auth/changePassword', input));
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
