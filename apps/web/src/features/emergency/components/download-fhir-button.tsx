import { useState } from 'react';
import { serverMessage } from '../../../lib/api-client';
import { downloadFile, saveBlob } from '../../export/api/download-file';
import { useEmergencyI18n } from '../i18n/use-emergency-i18n';

export interface DownloadFhirButtonProps {
  shareId: string;
  /** Which emergency route answered: the person's own code, or a family member's. */
  kind: 'self' | 'family';
  /** The PIN the viewer just entered correctly. */
  pin: string;
}

/**
 * The emergency page's 'Download for clinicians (FHIR)' (decision 0004): the same emergency information as
 * a FHIR R4 patient summary (IPS) file that a clinician's system can import. It sends the PIN again,
 * so it counts against the same attempt limit as the page.
 */
export function DownloadFhirButton({ shareId, kind, pin }: DownloadFhirButtonProps) {
  const { t, locale } = useEmergencyI18n();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const download = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const path = `/api/user/${kind === 'family' ? 'family/' : ''}emergency/${encodeURIComponent(shareId)}/fhir?pin=${encodeURIComponent(pin)}`;
      const { blob, filename } = await downloadFile(path, { fallbackName: 'emergency-summary.fhir.json' });
      saveBlob(blob, filename);
    } catch (err) {
      // The server's own words are English; other languages get the page's.
      setError((locale === 'en' && serverMessage(err)) || t('downloadFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mt-8 flex flex-col gap-2 border-t-2 border-black pt-6">
      <button
        type="button"
        onClick={() => void download()}
        aria-disabled={busy}
        className="min-h-14 self-start rounded-xl border-2 border-black bg-white px-6 py-3 text-lg font-bold text-black hover:bg-slate-100 aria-disabled:cursor-wait"
      >
        {busy ? t('downloadPreparing') : t('downloadFhir')}
      </button>
      <p className="text-base text-black">{t('downloadFhirHint')}</p>
      {error ? (
        <p role="alert" className="text-lg font-bold text-red-900">
          {error}
        </p>
      ) : null}
    </div>
  );
}
