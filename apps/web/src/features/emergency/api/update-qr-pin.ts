import { useMutation, useQueryClient } from '@tanstack/react-query';
import { qrConfigWithMessageSchema } from '@kinchart/shared/emergency';
import { api } from '../../../lib/api-client';
import { isSelf, qrBasePath, qrConfigKey, type QrTarget } from './qr-target';

/** PUT /api/user/wearable-qr/update-pin or /api/user/family/members/{id}/qr/pin with {pin}: the configuration and a message. */
export async function updateQrPin(target: QrTarget, pin: string) {
  const path = isSelf(target) ? `${qrBasePath(target)}/update-pin` : `${qrBasePath(target)}/pin`;
  return qrConfigWithMessageSchema.parse(await api.put(path, { pin }));
}

export function useUpdateQrPin(target: QrTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pin: string) => updateQrPin(target, pin),
    // A new PIN restarts the wrong-PIN count on the server, so read the state back.
    onSettled: () => queryClient.invalidateQueries({ queryKey: qrConfigKey(target) }),
  });
}
