import { useId, useState, type MouseEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { serverText } from '../../../i18n/server-messages';
import { useQrConfig } from '../api/get-qr-config';
import { qrBasePath, type QrTarget } from '../api/qr-target';
import { PinInput, isCompletePin, pinFormatMessage } from './pin-input';

export type Paper = 'a4' | 'letter';

/** US Letter where it is the usual paper (the US, Canada, Mexico, the Philippines…), A4 elsewhere. */
export function defaultPaper(locale: string | undefined): Paper {
  return /-(US|CA|MX|PH|CL|CO|VE)$/i.test(locale ?? '') ? 'letter' : 'a4';
}

/** The name the server gave the file (it never holds the share id), or a plain one. */
function fileNameOf(response: Response): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '');
  return match?.[1] ?? 'emergency-card.pdf';
}

export interface EmergencyCardDownloadsProps {
  target: QrTarget;
  headingLevel?: 3 | 4;
}

const linkClass =
  'inline-flex min-h-11 items-center justify-center rounded-lg border border-brand-600 bg-white px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

/**
 * Something to carry, for an active code (DESIGN §7): the wallet card to print (PDF, A4 or US
 * Letter, optionally with the PIN the owner types — it is stored only as a hash), the QR code
 * alone at print resolution, and a phone lock-screen image. Nothing shows before set-up or while
 * the code is off.
 */
export function EmergencyCardDownloads({ target, headingLevel = 3 }: EmergencyCardDownloadsProps) {
  const { t } = useLingui();
  const headingId = useId();
  const paperId = useId();
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  const config = useQrConfig(target);
  const [paper, setPaper] = useState<Paper>(() => defaultPaper(typeof navigator === 'undefined' ? undefined : navigator.language));
  const [printPin, setPrintPin] = useState(false);
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  if (!config.data?.exists || !config.data.is_active) return null;
  const base = qrBasePath(target);
  const wrongPinFallback = t`The card could not be made. Check the PIN and try again.`;
  const cardHref = `${base}/card.pdf?paper=${paper}`;

  /** With the PIN, fetch first so a wrong PIN is shown here instead of saved as a file. */
  const downloadWithPin = async (event: MouseEvent<HTMLAnchorElement>) => {
    if (!printPin) return;
    event.preventDefault();
    if (!isCompletePin(pin)) {
      setError(pinFormatMessage());
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      const response = await fetch(`${cardHref}&pin=${encodeURIComponent(pin)}`, { credentials: 'same-origin' });
      if (!response.ok) {
        setError(serverText(await response.json().catch(() => null)) ?? wrongPinFallback);
        return;
      }
      const url = URL.createObjectURL(await response.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = fileNameOf(response);
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch {
      setError(wrongPinFallback);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={headingId} className="mt-6 flex flex-col gap-4 rounded-xl border border-slate-200 bg-slate-50 p-4">
      <div>
        <Heading id={headingId} className="text-base font-semibold text-slate-900">
          <Trans>Something to carry</Trans>
        </Heading>
        <p className="mt-1 text-sm text-slate-700">
          <Trans>
            A wallet card to print and cut out, the QR code on its own for a sticker or a bracelet, and an image for a phone’s lock screen.
          </Trans>
        </p>
      </div>

      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={paperId} className="text-sm font-medium text-slate-800">
            <Trans>Paper size</Trans>
          </label>
          <select
            id={paperId}
            value={paper}
            onChange={(event) => setPaper(event.target.value === 'letter' ? 'letter' : 'a4')}
            className="min-h-11 rounded-lg border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900"
          >
            <option value="a4">A4</option>
            <option value="letter">{t`US Letter`}</option>
          </select>
        </div>
        <label className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            checked={printPin}
            onChange={(event) => {
              setPrintPin(event.target.checked);
              setError(undefined);
            }}
            className="size-5"
          />
          <Trans>Print the PIN on the card</Trans>
        </label>
      </div>
      {printPin ? (
        <PinInput
          label={t`The code’s PIN`}
          value={pin}
          onValueChange={(value) => {
            setPin(value);
            setError(undefined);
          }}
          hint={t`Type the PIN you chose; it is stored only in scrambled form, so Kinchart cannot print it otherwise.`}
          error={error}
        />
      ) : null}

      <ul className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <li>
          <a
            href={cardHref}
            download
            onClick={(event) => void downloadWithPin(event)}
            aria-busy={busy || undefined}
            className={`${linkClass} w-full sm:w-auto`}
          >
            <Trans>Download wallet card (PDF)</Trans>
          </a>
        </li>
        <li>
          <a href={`${base}/qr.png`} download className={`${linkClass} w-full sm:w-auto`}>
            <Trans>Download QR code (PNG)</Trans>
          </a>
        </li>
        <li>
          <a href={`${base}/lockscreen.png`} download className={`${linkClass} w-full sm:w-auto`}>
            <Trans>Download lock-screen image (PNG)</Trans>
          </a>
        </li>
      </ul>
      {error && !printPin ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </section>
  );
}
