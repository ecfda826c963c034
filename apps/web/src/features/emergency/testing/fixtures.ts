import { QR_NOT_CONFIGURED, type QrConfig } from '@kinchart/shared/emergency';

/** A code not set up yet: the server's answer before set-up (the shared QR_NOT_CONFIGURED), for unit tests. */
export const NOT_CONFIGURED_QR: QrConfig = QR_NOT_CONFIGURED;
