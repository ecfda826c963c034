import { useMutation, useQueryClient } from '@tanstack/react-query';
import { qrConfigSchema, type QrConfig } from '@kinchart/shared/emergency';
import { api } from '../../../lib/api-client';
import { isSelf, qrBasePath, qrConfigKey, type QrTarget } from './qr-target';

/**
 * SPEC §7 QR: the personal toggle sends the desired new state; a member's toggle has an empty
 * body and flips. A 404 means there is no code yet (the caller resets to set-up).
 */
export async function toggleQr(target: QrTarget, isActive: boolean): Promise<QrConfig> {
  const path = `${qrBasePath(target)}/toggle`;
  return qrConfigSchema.parse(await (isSelf(target) ? api.put(path, { is_active: isActive }) : api.put(path)));
}

export function useToggleQr(target: QrTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (isActive: boolean) => toggleQr(target, isActive),
    onSuccess: (config) => {
      queryClient.setQueryData<QrConfig>(qrConfigKey(target), config);
    },
  });
}
