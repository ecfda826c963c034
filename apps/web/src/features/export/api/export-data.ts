import { EXPORT_PATH } from '@kinchart/shared/export';
import type { DownloadProgress } from './download-file';
import { downloadFile, saveBlob } from './download-file';

/**
 * GET /api/user/export: the whole account as a zip (kinchart.json, FHIR bundles, files), saved
 * under the server's file name. Resolves once the browser has the file.
 */
export async function exportData(onProgress?: (p: DownloadProgress) => void, signal?: AbortSignal): Promise<string> {
  const { blob, filename } = await downloadFile(EXPORT_PATH, { fallbackName: 'kinchart-export.zip', onProgress, signal });
  saveBlob(blob, filename);
  return filename;
}
