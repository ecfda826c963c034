import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportResult } from '@kinchart/shared/export';
import { IMPORT_PATH, IMPORT_TARGET_FIELD, importResultSchema } from '@kinchart/shared/export';
import { xhrUpload } from '../../../lib/upload-client';
import { dispatchAppEvent } from '../../../lib/events';

export interface ImportInput {
  file: File;
  /** 'self' or a family member's id; only a FHIR Bundle reads it. */
  target: string;
  onProgress?: (fraction: number | null) => void;
}

/**
 * POST /api/user/import (multipart), through the one upload client: an export can be large, and
 * the bar shows how far it is. Once the body is through, the server checks and writes everything:
 * no more progress to show. The answer is read by its shared schema.
 */
export async function importData({ file, target, onProgress }: ImportInput): Promise<ImportResult> {
  const body = new FormData();
  body.append(IMPORT_TARGET_FIELD, target);
  body.append('file', file);
  const answer = await xhrUpload(IMPORT_PATH, body, {
    onProgress: ({ loaded, total }) => onProgress?.(total ? loaded / total : null),
    onSent: () => onProgress?.(null),
  });
  return importResultSchema.parse(answer);
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
