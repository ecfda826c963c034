import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteAccountInput } from '@kinchart/shared/auth';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { clearSession } from '../../auth/api/check-auth';
import { forgetOfflineCards } from '../../offline-cards/lib/forget-offline-cards';

/** DELETE /api/auth/deleteAccount with the password in the body; every session ends (DESIGN §5). */
export async function deleteAccount(input: DeleteAccountInput): Promise<MessageResponse> {
  return messageSchema.parse(await api.delete('/api/auth/deleteAccount', input));
}

export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAccount,
    // Forget everything the user loaded, the emergency cards kept on this device included, and
    // record that nobody is signed in.
    onSuccess: async () => {
      await forgetOfflineCards().catch(() => undefined);
      clearSession(queryClient);
    },
  });
}
