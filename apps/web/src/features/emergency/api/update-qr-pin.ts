import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QrConfig } from '@kinchart/shared/emergency';
import { api } from '../../../lib/api-client';
import { isSelf, qrBasePath, qrConfigKey, type QrTarget } from './qr-target';

export type QrPinAnswer = Partial<QrConfig> & { message?: string };

/** PUT /api/user/wearable-qr/update-pin or /api/user/family/members/{id}/qr/pin with {pin}. */
export function updateQrPin(target: QrTarget, pin: string): Promise<QrPinAnswer> {
  const path = isSelf(target) ? `${qrBasePath(target)}/update-pin` : `${qrBasePath(target)}/pin`;
  return api.put<QrPinAnswer>(path, { pin });
}

export function useUpdateQrPin(target: QrTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pin: string) => updateQrPin(target, pin),
    // A new PIN restarts the wrong-PIN count on the server, so read the state back.
    onSettled: () => queryClient.invalidateQueries({ queryKey: qrConfigKey(target) }),
  });
}
