import { useId, useState } from 'react';
import { QRCodeSVG } from 'qrcode.react';
import { select } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '../../../components/ui/button';
import { notify } from '../../../lib/toast';
import type { ShlTarget } from '../api/get-shl-link';
import { useShlLink } from '../api/get-shl-link';

/** Whose code (the emergency feature's `Whose`): the person's own, a named member's or an unnamed one's. */
type Whose = { who: 'self' } | { who: 'named'; name: string } | { who: 'member' };

export interface ShlOfferProps {
  target: ShlTarget;
  /** Only an active code can be shared as a link. */
  active: boolean;
  /** Who the code is for, in running text: "your" / "Rex's". */
  whose: Whose;
}

/**
 * The SMART Health Link offered beside an emergency QR code (decision 0004; HL7 SMART Health Cards and
 * Links). The QR code itself stays the plain link a bystander's camera opens; this one is for
 * clinicians' apps that read SMART Health Links. It asks for the same PIN as its passcode, and
 * wrong guesses count against the same limit.
 */
export function ShlOffer({ target, active, whose }: ShlOfferProps) {
  const { t } = useLingui();
  const who = whose.who === 'member' ? 'other' : whose.who;
  const name = whose.who === 'named' ? whose.name : '';
  const [shown, setShown] = useState(false);
  const regionId = useId();
  const link = useShlLink(target, shown && active);

  if (!active) return null;

  const copy = async (value: string) => {
    try {
      await navigator.clipboard.writeText(value);
      notify.success(t`Link copied to clipboard!`);
    } catch {
      notify.error(t`The link could not be copied. Select it and copy it by hand.`);
    }
  };

  return (
    <div className="flex w-full max-w-md flex-col gap-3 rounded-xl border border-slate-200 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-semibold text-slate-900">
          <Trans>SMART Health Link for clinicians</Trans>
        </p>
        <Button variant="secondary" size="sm" aria-expanded={shown} aria-controls={regionId} onClick={() => setShown((s) => !s)}>
          {shown ? t`Hide SMART Health Link` : t`Show SMART Health Link`}
        </Button>
      </div>
      <div id={regionId} hidden={!shown} className="flex flex-col gap-3">
        <p className="text-sm text-slate-700">
          {t`${select(who, {
            self: "Apps that read SMART Health Links can fetch your emergency summary in the standard FHIR format. They ask for the code's PIN as the passcode, and you are notified each time, with the name the app gives.",
            named: `Apps that read SMART Health Links can fetch ${name}’s emergency summary in the standard FHIR format. They ask for the code's PIN as the passcode, and you are notified each time, with the name the app gives.`,
            other:
              "Apps that read SMART Health Links can fetch this member’s emergency summary in the standard FHIR format. They ask for the code's PIN as the passcode, and you are notified each time, with the name the app gives.",
          })}`}
        </p>
        {link.isPending ? (
          <p className="text-sm text-slate-700">
            <Trans>Loading the link...</Trans>
          </p>
        ) : null}
        {link.isError ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            <Trans>The SMART Health Link could not be loaded.</Trans>
          </p>
        ) : null}
        {link.data ? (
          <div className="flex flex-col items-center gap-3">
            <QRCodeSVG
              value={link.data.shlink}
              size={200}
              level="M"
              marginSize={4}
              role="img"
              aria-label={t`${select(who, {
                self: 'SMART Health Link QR code for your emergency summary',
                named: `SMART Health Link QR code for ${name}’s emergency summary`,
                other: 'SMART Health Link QR code for this member’s emergency summary',
              })}`}
              className="rounded-md border border-slate-200 bg-white"
            />
            <p dir="ltr" className="w-full break-all rounded-md bg-slate-50 px-3 py-2 font-mono text-xs text-slate-800">
              {link.data.shlink}
            </p>
            <Button variant="secondary" size="sm" onClick={() => void copy(link.data.shlink)}>
              <Trans>Copy SMART Health Link</Trans>
            </Button>
          </div>
        ) : null}
      </div>
    </div>
  );
}
