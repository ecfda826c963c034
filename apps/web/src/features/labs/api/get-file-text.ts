import { queryOptions, useQuery } from '@tanstack/react-query';
import { fileTextPath, fileTextSchema, type FileText } from '@kinchart/shared/search';
import { api } from '../../../lib/api-client';

/** GET /api/user/files/{id}/text (issue 33): the file's text, page by page. */
export async function getFileText(fileId: string): Promise<FileText> {
  return fileTextSchema.parse(await api.get(fileTextPath(fileId)));
}

export const fileTextQueryOptions = (fileId: string) =>
  queryOptions({ queryKey: ['files', fileId, 'text'] as const, queryFn: () => getFileText(fileId) });

/** The pages the review screen shows beside the rows. */
export function useFileText(fileId: string) {
  return useQuery(fileTextQueryOptions(fileId));
}
