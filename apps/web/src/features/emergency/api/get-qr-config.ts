import { queryOptions, useQuery } from '@tanstack/react-query';
import { qrConfigSchema, type QrConfig } from '@kinchart/shared/emergency';
import { api } from '../../../lib/api-client';
import { qrBasePath, qrConfigKey, type QrTarget } from './qr-target';

/** GET /api/user/wearable-qr or /api/user/family/members/{id}/qr → `exists: false` before set-up. */
export async function getQrConfig(target: QrTarget): Promise<QrConfig> {
  return qrConfigSchema.parse(await api.get(qrBasePath(target)));
}

export function qrConfigQueryOptions(target: QrTarget) {
  return queryOptions({ queryKey: qrConfigKey(target), queryFn: () => getQrConfig(target) });
}

/** The target's QR configuration, shared by the settings panels and the dashboard image. */
export function useQrConfig(target: QrTarget) {
  return useQuery(qrConfigQueryOptions(target));
}
