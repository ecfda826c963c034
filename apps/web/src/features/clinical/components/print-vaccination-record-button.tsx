import { useLingui } from '@lingui/react/macro';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { useDownloadVaccinationRecord } from '../api/download-vaccination-record';

/** Downloads the person's vaccination record as a PDF to print (viewer and up, DESIGN §12). */
export function PrintVaccinationRecordButton({ personId }: { personId: string }) {
  const { t } = useLingui();
  const download = useDownloadVaccinationRecord(personId);
  return (
    <>
      <Button
        variant="secondary"
        onClick={() => download.mutate()}
        disabled={download.isPending}
        aria-busy={download.isPending || undefined}
      >
        <PrinterIcon />
        {download.isPending ? t`Preparing...` : t`Print vaccination record`}
      </Button>
      {download.isError ? (
        <p role="alert" className="w-full text-sm font-medium text-red-700">
          {errorMessage(download.error, t`The vaccination record could not be downloaded. Please try again.`)}
        </p>
      ) : null}
    </>
  );
}

function PrinterIcon() {
  return (
    <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false" className="size-4" fill="currentColor">
      <path d="M5 2h10v4H5V2Zm-2 5h14a2 2 0 0 1 2 2v5h-3v4H4v-4H1V9a2 2 0 0 1 2-2Zm3 6v3h8v-3H6Zm9-4a1 1 0 1 0 0 2 1 1 0 0 0 0-2Z" />
    </svg>
  );
}
