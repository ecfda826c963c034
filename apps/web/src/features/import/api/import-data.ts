import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportResult } from '@kinchart/shared/export';
import { IMPORT_PATH, IMPORT_TARGET_FIELD } from '@kinchart/shared/export';
import { ApiError } from '../../../lib/api-client';
import { dispatchAppEvent } from '../../../lib/events';

export interface ImportInput {
  file: File;
  /** 'self' or a family member's id; only a FHIR Bundle reads it. */
  target: string;
  onProgress?: (fraction: number | null) => void;
}

function parse(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return text;
  }
}

/**
 * POST /api/user/import (multipart). XMLHttpRequest rather than fetch: an export can be large, and
 * only XHR reports upload progress. Same rules as the api client: the session cookie goes along,
 * no timeout, any 2xx is success, a failure rejects with an ApiError carrying the server's message.
 */
export function importData({ file, target, onProgress }: ImportInput): Promise<ImportResult> {
  const body = new FormData();
  body.append(IMPORT_TARGET_FIELD, target);
  body.append('file', file);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', IMPORT_PATH);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => onProgress?.(event.lengthComputable ? event.loaded / event.total : null);
    // Once the upload is through, the server checks and writes everything: no more progress to show.
    xhr.upload.onload = () => onProgress?.(null);
    xhr.onload = () => {
      const data = parse(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) return resolve(data as ImportResult);
      const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
      const message = typeof record.message === 'string' && record.message ? record.message : `Request failed with status code ${xhr.status}`;
      reject(new ApiError(xhr.status, message, data));
    };
    xhr.onerror = () => reject(new Error('Network Error'));
    xhr.send(body);
  });
}

/** After an import everything may have changed: refetch it all and tell the listening parts. */
export function useImportData() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importData,
    onSuccess: async () => {
      await queryClient.invalidateQueries();
      dispatchAppEvent('familyMemberUpdated');
      dispatchAppEvent('filesUpdated');
    },
  });
}
