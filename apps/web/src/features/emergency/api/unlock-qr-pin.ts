import { useMutation, useQueryClient } from '@tanstack/react-query';
import { qrConfigSchema, type QrConfig } from '@kinchart/shared/emergency';
import { api } from '../../../lib/api-client';
import { qrBasePath, qrConfigKey, type QrTarget } from './qr-target';

/** PUT …/unlock: lifts a PIN lock or turns a disabled PIN back on, and clears the wrong-PIN counts (DESIGN §7). */
export async function unlockQrPin(target: QrTarget): Promise<QrConfig> {
  return qrConfigSchema.parse(await api.put(`${qrBasePath(target)}/unlock`));
}

export function useUnlockQrPin(target: QrTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unlockQrPin(target),
    onSuccess: (config) => {
      queryClient.setQueryData<QrConfig>(qrConfigKey(target), config);
    },
  });
}
