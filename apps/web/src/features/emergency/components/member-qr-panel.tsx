import { useMemo } from 'react';
import { useLingui } from '@lingui/react/macro';
import { QrPanel, type QrPanelTexts } from './qr-panel';
import { EmergencyCardDownloads } from './emergency-card-downloads';

export interface MemberQrPanelProps {
  memberId: string;
  memberName?: string | null;
  /** 3 inside the Family QR Codes list; 2 on its own (the Edit Family Member "Emergency QR" tab). */
  headingLevel?: 2 | 3;
}

/** One family member's emergency QR code (SPEC §2 Family QR Codes, Edit Family Member → Emergency QR). */
export function MemberQrPanel({ memberId, memberName, headingLevel = 2 }: MemberQrPanelProps) {
  const target = useMemo(() => ({ memberId }), [memberId]);
  const { t } = useLingui();
  const name = memberName?.trim();
  const texts: QrPanelTexts = {
    heading: name ? t`QR Code for ${name}` : t`Family Member QR Code`,
    whose: name ? { who: 'named', name } : { who: 'member' },
    setUpFirst: t`Please set up the QR code first`,
    pinUpdateFailed: t`Error updating PIN`,
  };
  return (
    <>
      <QrPanel target={target} texts={texts} headingLevel={headingLevel} />
      <EmergencyCardDownloads target={target} headingLevel={headingLevel === 2 ? 3 : 4} />
    </>
  );
}
