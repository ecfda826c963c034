import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { fileLabResultsPath, fileLabResultsSchema, type FileLabResults } from '@kinchart/shared/labs';

/** How often the screen asks again while the file's text is still being read. */
export const LAB_RESULTS_POLL_MS = 3000;

export const fileLabResultsQueryKey = (fileId: string) => ['files', fileId, 'lab-results'] as const;

/** GET /api/user/files/{id}/lab-results (issue 34): the rows found in the file's text, for anyone who may read the file. */
export async function getFileLabResults(fileId: string): Promise<FileLabResults> {
  return fileLabResultsSchema.parse(await api.get(fileLabResultsPath(fileId)));
}

export const fileLabResultsQueryOptions = (fileId: string) =>
  queryOptions({ queryKey: fileLabResultsQueryKey(fileId), queryFn: () => getFileLabResults(fileId) });

/** The found rows; asked again every few seconds while the text is read ("pending"), then left alone. */
export function useFileLabResults(fileId: string) {
  return useQuery({
    ...fileLabResultsQueryOptions(fileId),
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? LAB_RESULTS_POLL_MS : false),
  });
}
