import { useRef, useState } from 'react';
import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { ApiError, isReauthRequired, serverMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import type { DownloadProgress } from '../api/download-file';
import { exportData } from '../api/export-data';

/** "Exporting... 42%" (the percentage as the reader's language writes it), or without one while the size is unknown. */
export function progressLabel(progress: DownloadProgress | null): string {
  if (!progress?.total) return t`Exporting...`;
  const percent = i18n.number(Math.min(100, Math.floor((progress.received / progress.total) * 100)) / 100, { style: 'percent' });
  return t`Exporting... ${percent}`;
}

function failureText(error: unknown): string {
  // The password prompt was cancelled (DESIGN §5: exporting everything needs a recent password).
  if (isReauthRequired(error)) return t`Export failed: your password was not confirmed.`;
  if (error instanceof ApiError && error.status === 401) return t`Export failed: please sign in again.`;
  const reason = serverMessage(error);
  if (reason) return t`Export failed: ${reason}`;
  return t`Export failed: the download was interrupted. Check the connection and try again.`;
}

/**
 * SPEC §2 Layout: the top bar's Export button. One click downloads everything in the account as a
 * zip (decision 0004); the button shows how far the download is and says clearly when it failed.
 */
export function ExportButton({ className, onStarted }: { className: string; onStarted?: () => void }) {
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const running = useRef(false);

  const start = async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setProgress(null);
    setStatus(t`Export started.`);
    onStarted?.();
    try {
      const filename = await exportData(setProgress);
      setStatus(t`Export complete: ${filename}.`);
      notify.success(t`Export complete: ${filename}`);
    } catch (error) {
      const text = failureText(error);
      setStatus(text);
      notify.error(text);
    } finally {
      running.current = false;
      setBusy(false);
      setProgress(null);
    }
  };

  return (
    <>
      <button
        type="button"
        aria-disabled={busy}
        onClick={() => void start()}
        className={`${className} tabular-nums aria-disabled:cursor-wait aria-disabled:opacity-80`}
      >
        {busy ? progressLabel(progress) : <Trans>Export</Trans>}
      </button>
      {/* Start, end and failure are announced once each; the changing percentage is not read out. */}
      <span role="status" className="sr-only">
        {status}
      </span>
    </>
  );
}
