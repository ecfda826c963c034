import { useMemo } from 'react';
import { useLingui } from '@lingui/react/macro';
import { useQrConfig } from '../api/get-qr-config';
import type { QrTarget } from '../api/qr-target';
import { QrCodeFigure } from './qr-code-figure';
import { qrLink } from './qr-link';

/**
 * The dashboard QR image (SPEC §2, §9: 180 px, level H, with a margin) and its link, for the
 * person or the selected member. Renders nothing unless the code is set up and active.
 */
export function ProfileQrImage({ target }: { target: { self: true } | { memberId: string } }) {
  const { t } = useLingui();
  const memberId = 'memberId' in target ? target.memberId : null;
  // Callers pass object literals; keep the target stable per member so the query key is too.
  const stable: QrTarget = useMemo(() => (memberId === null ? { self: true } : { memberId }), [memberId]);
  const config = useQrConfig(stable);
  const data = config.data;
  if (!data?.exists || !data.is_active) return null;
  const link = qrLink(data, stable);
  if (!link) return null;
  return <QrCodeFigure link={link} label={t`Emergency QR code linking to the emergency information`} />;
}
