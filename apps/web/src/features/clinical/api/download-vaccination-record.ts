import { useMutation } from '@tanstack/react-query';
import { downloadFile, saveBlob } from '../../export/api/download-file';

/** GET /api/user/people/{personId}/immunizations.pdf (viewer and up). */
export const vaccinationRecordPath = (personId: string) => `/api/user/people/${encodeURIComponent(personId)}/immunizations.pdf`;

/**
 * Fetches the person's vaccination record and hands it to the browser as a download, so a failure
 * (the person gone, the session ended) is told on the page instead of saved as a file.
 */
export async function downloadVaccinationRecord(personId: string): Promise<string> {
  const { blob, filename } = await downloadFile(vaccinationRecordPath(personId), { fallbackName: 'vaccination-record.pdf' });
  saveBlob(blob, filename);
  return filename;
}

export function useDownloadVaccinationRecord(personId: string) {
  return useMutation({ mutationFn: () => downloadVaccinationRecord(personId) });
}
