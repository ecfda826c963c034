import { useLingui } from '@lingui/react/macro';
import { SELF_TARGET } from '../api/qr-target';
import { QrPanel, type QrPanelTexts } from './qr-panel';
import { EmergencyCardDownloads } from './emergency-card-downloads';
import { SELF_WHOSE } from './whose';

/** Settings → Personal QR Code, the default tab (SPEC §2). */
export function PersonalQrTab() {
  const { t } = useLingui();
  const texts: QrPanelTexts = {
    heading: t`Personal QR Code`,
    whose: SELF_WHOSE,
    setUpFirst: t`Please set up your QR code first`,
    pinUpdateFailed: t`Failed to update PIN`,
  };
  return (
    <>
      <QrPanel target={SELF_TARGET} texts={texts} />
      <EmergencyCardDownloads target={SELF_TARGET} />
    </>
  );
}
