import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/auth/logout ends this session on the server (DESIGN §5). */
export function logout(): Promise<unknown> {
  return api.post('/api/auth/logout');
}

export function useLogout() {
  return useMutation({ mutationFn: logout });
}
