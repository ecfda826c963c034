import { useMutation } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';

/** POST /api/auth/logout ends this session on the server (DESIGN §5). */
export async function logout(): Promise<MessageResponse> {
  return messageSchema.parse(await api.post('/api/auth/logout'));
}

export function useLogout() {
  return useMutation({ mutationFn: logout });
}
