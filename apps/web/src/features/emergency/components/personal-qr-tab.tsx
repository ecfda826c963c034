import { SELF_TARGET } from '../api/qr-target';
import { QrPanel, type QrPanelTexts } from './qr-panel';
import { EmergencyCardDownloads } from './emergency-card-downloads';

const texts: QrPanelTexts = {
  heading: 'Personal QR Code',
  whose: 'your',
  setUpFirst: 'Please set up your QR code first',
  pinUpdateFailed: 'Failed to update PIN',
};

/** Settings → Personal QR Code, the default tab (SPEC §2). */
export function PersonalQrTab() {
  return (
    <>
      <QrPanel target={SELF_TARGET} texts={texts} />
      <EmergencyCardDownloads target={SELF_TARGET} />
    </>
  );
}
