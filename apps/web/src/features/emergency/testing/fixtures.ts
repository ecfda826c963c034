import type { QrConfig } from '@kinchart/shared/emergency';

/** A code not set up yet, shaped exactly like the server's answer (the shared qrConfigSchema), for unit tests. */
export const NOT_CONFIGURED_QR: QrConfig = {
  exists: false,
  is_active: false,
  access_pin: null,
  qr_data: null,
  share_id: null,
  is_disabled: false,
  essentials_without_pin: false,
  pin_status: 'ok',
};
