import { useMutation, useQueryClient } from '@tanstack/react-query';
import { qrConfigSchema, type QrConfig, type QrSettingsBody } from '@kinchart/shared/emergency';
import { api } from '../../../lib/api-client';
import { qrBasePath, qrConfigKey, type QrTarget } from './qr-target';

/** PUT …/settings: the owner's "show essentials without the PIN" choice (DESIGN §7). 404 before set-up. */
export async function updateQrSettings(target: QrTarget, body: QrSettingsBody): Promise<QrConfig> {
  return qrConfigSchema.parse(await api.put(`${qrBasePath(target)}/settings`, body));
}

export function useUpdateQrSettings(target: QrTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: QrSettingsBody) => updateQrSettings(target, body),
    onSuccess: (config) => {
      queryClient.setQueryData<QrConfig>(qrConfigKey(target), config);
    },
  });
}
