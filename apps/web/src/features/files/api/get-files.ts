import { queryOptions, useQuery } from '@tanstack/react-query';
import { medicalFileSchema, type MedicalFile } from '@kinchart/shared/files';
import { api } from '../../../lib/api-client';

/** The prefix of every files query (everyone's and each person's): invalidate it after a change. */
export const filesQueryKey = ['files'] as const;

/** One person's records, or everyone's (`personId` undefined). */
export const filesOfQueryKey = (personId?: string) => (personId ? ([...filesQueryKey, { person: personId }] as const) : filesQueryKey);

/**
 * GET /api/user/files (SPEC §3 listed record fields), or GET /api/user/files?person={id} for one
 * person's records (DESIGN §11). Each record names its person (person_id, person_name).
 */
export async function getFiles(personId?: string): Promise<MedicalFile[]> {
  const path = personId ? `/api/user/files?${new URLSearchParams({ person: personId }).toString()}` : '/api/user/files';
  return medicalFileSchema.array().parse(await api.get(path));
}

export const filesQueryOptions = (personId?: string) =>
  queryOptions({ queryKey: filesOfQueryKey(personId), queryFn: () => getFiles(personId) });

/**
 * The record list — everyone's, or one person's. View Records, the View Files modal and the
 * dashboard share these cache entries.
 */
export function useFiles(personId?: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    ...filesQueryOptions(personId),
    enabled,
    // Issue 33: while a record's text is being read, ask again every few seconds; stop once none is.
    refetchInterval: (query) => (isReadingText(query.state.data) ? TEXT_POLL_MS : false),
  });
}

/** How often the list asks again while a file's text is read. */
export const TEXT_POLL_MS = 3000;

function isReadingText(files: readonly MedicalFile[] | undefined): boolean {
  return files?.some((f) => f.text_status === 'pending' || f.text_status === 'processing') ?? false;
}
