import { EXPORT_PATH } from '@kinchart/shared/export';
import type { DownloadProgress } from './download-file';
import { downloadFile, saveBlob } from './download-file';

/**
 * GET /api/user/export?tz=…: the whole account as a zip (kinchart.json, FHIR bundles, files), saved
 * under the server's file name. `tz` is the browser's time zone: appointment times are wall-clock
 * times, and the FHIR bundles write them with this zone's offset (decision 0023).
 */
export function exportUrl(timeZone: string = Intl.DateTimeFormat().resolvedOptions().timeZone): string {
  return `${EXPORT_PATH}?${new URLSearchParams({ tz: timeZone }).toString()}`;
}

/** Downloads the export and hands it to the browser; resolves once the browser has the file. */
export async function exportData(onProgress?: (p: DownloadProgress) => void, signal?: AbortSignal): Promise<string> {
  const { blob, filename } = await downloadFile(exportUrl(), { fallbackName: 'kinchart-export.zip', onProgress, signal });
  saveBlob(blob, filename);
  return filename;
}
