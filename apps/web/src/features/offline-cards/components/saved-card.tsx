import { useId } from 'react';
import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { EmergencyCard } from '../api/get-emergency-cards';
import { EmergencyInfoView } from '../../emergency/components/emergency-info-view';
import { QrCodeFigure } from '../../emergency/components/qr-code-figure';

/** The name a card goes by in the person switcher and in labels. */
export function cardName(card: EmergencyCard): string {
  const name = card.info.name?.trim();
  if (card.is_self) return name ? t`${name} (you)` : t`You`;
  return name || (card.info.is_pet ? t`Pet` : t`Family member`);
}

/**
 * One person's kept emergency card: the emergency page's own view (SPEC §2 Emergency page states,
 * DESIGN §7) and, while the person's code is active, its QR code.
 */
export function SavedCard({ card }: { card: EmergencyCard }) {
  const { t } = useLingui();
  const qrHeadingId = useId();
  const name = cardName(card);
  return (
    <article aria-label={t`Emergency card: ${name}`} className="flex flex-col gap-5 text-black">
      <EmergencyInfoView info={card.info} titleLevel={2} />
      {card.qr_data ? (
        <section
          aria-labelledby={qrHeadingId}
          className="flex flex-col items-center gap-3 rounded-2xl border-2 border-slate-800 bg-white p-4 sm:p-6"
        >
          <h3 id={qrHeadingId} className="self-start text-2xl font-extrabold text-black">
            <Trans>Emergency QR code</Trans>
          </h3>
          <p className="self-start text-lg text-black">
            <Trans>A responder who scans it can open this information on their own phone with the PIN.</Trans>
          </p>
          <QrCodeFigure link={card.qr_data} label={t`Emergency QR code of ${name}`} />
        </section>
      ) : null}
    </article>
  );
}
