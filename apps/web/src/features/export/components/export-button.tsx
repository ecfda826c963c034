import { useRef, useState } from 'react';
import { ApiError, isReauthRequired, serverMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import type { DownloadProgress } from '../api/download-file';
import { exportData } from '../api/export-data';

export const EXPORT_FAILED = 'Export failed';

/** "Exporting... 42%", or without a percentage while the size is unknown. */
export function progressLabel(progress: DownloadProgress | null): string {
  if (!progress?.total) return 'Exporting...';
  return `Exporting... ${Math.min(100, Math.floor((progress.received / progress.total) * 100))}%`;
}

function failureText(error: unknown): string {
  // The password prompt was cancelled (DESIGN §5: exporting everything needs a recent password).
  if (isReauthRequired(error)) return `${EXPORT_FAILED}: your password was not confirmed.`;
  if (error instanceof ApiError && error.status === 401) return `${EXPORT_FAILED}: please sign in again.`;
  const reason = serverMessage(error);
  if (reason) return `${EXPORT_FAILED}: ${reason}`;
  return `${EXPORT_FAILED}: the download was interrupted. Check the connection and try again.`;
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
    setStatus('Export started.');
    onStarted?.();
    try {
      const filename = await exportData(setProgress);
      setStatus(`Export complete: ${filename}.`);
      notify.success(`Export complete: ${filename}`);
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
        {busy ? progressLabel(progress) : 'Export'}
      </button>
      {/* Start, end and failure are announced once each; the changing percentage is not read out. */}
      <span role="status" className="sr-only">
        {status}
      </span>
    </>
  );
}
