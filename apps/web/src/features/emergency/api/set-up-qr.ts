import { useMutation, useQueryClient } from '@tanstack/react-query';
import { qrConfigWithMessageSchema, type QrConfig, type QrSetupBody } from '@kinchart/shared/emergency';
import { api } from '../../../lib/api-client';
import { qrBasePath, qrConfigKey, type QrTarget } from './qr-target';

/**
 * POST {pin, essentials_without_pin} → 201 with the new, active configuration and a message (SPEC
 * §4 "QR code per person"); the owner's answer on the essentials is written with the code (issue 30).
 */
export async function setUpQr(target: QrTarget, body: QrSetupBody) {
  return qrConfigWithMessageSchema.parse(await api.post(qrBasePath(target), body));
}

export function useSetUpQr(target: QrTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: QrSetupBody) => setUpQr(target, body),
    onSuccess: ({ message: _message, ...config }) => {
      queryClient.setQueryData<QrConfig>(qrConfigKey(target), config);
      // The server tells the owner about a new code (qr_setup); let the header's count show it.
      // The key is the notifications list's; features share keys, not modules.
      void queryClient.invalidateQueries({ queryKey: ['notifications'] });
    },
  });
}
