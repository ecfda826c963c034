import type { QrConfig } from '@kinchart/shared/emergency';
import { isSelf, type QrTarget } from '../api/qr-target';

/**
 * The link a code encodes: the server's qr_data, else one built from the share id — SPEC §2:
 * "The fallback link shape is /family/emergency/{shareId}" for members, /emergency/{shareId} for
 * the person's own code.
 */
export function qrLink(config: Pick<QrConfig, 'qr_data' | 'share_id'>, target: QrTarget): string | null {
  if (config.qr_data) return config.qr_data;
  if (!config.share_id) return null;
  const path = isSelf(target) ? '/emergency/' : '/family/emergency/';
  return `${window.location.origin}${path}${encodeURIComponent(config.share_id)}`;
}
