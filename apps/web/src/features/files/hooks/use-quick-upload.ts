import { t } from '@lingui/core/macro';
import { useQueryClient } from '@tanstack/react-query';
import { uploadLimitMb } from '@kinchart/shared/files';
import type { Person } from '@kinchart/shared/people';
import { serverMessage } from '../../../lib/api-client';
import { canWrite, defaultPersonId } from '../../../lib/person-choice';
import { clientConfigQueryOptions } from '../../../lib/queries/client-config';
import { peopleQueryOptions, personLabel } from '../../../lib/queries/people';
import { getSelectedPersonId } from '../../../lib/selected-person';
import { notify } from '../../../lib/toast';
import { useUploadFile } from '../api/upload-file';
import { useAnnounceUpload } from './use-announce-upload';

/** Whose record the toast names: null for your own profile ("you"), else the person's name. */
function whose(people: readonly Person[], personId: string, fallback: string | null): string | null {
  const person = people.find((p) => p.id === personId);
  if (person) return person.is_self && person.shared_by === null ? null : personLabel(person);
  return fallback || null;
}

/**
 * SPEC §2 Layout / §7 Files / §8: the navigation bar's upload of one file to POST /api/user/upload,
 * with 'Successfully uploaded {name}' or 'Failed to upload file'. Shared by the top bar's Upload
 * and the mobile menu's Import. Issue 30: the file goes to the person chosen on the dashboard (as
 * the form's "For" starts; yourself when you may not add to theirs), the toast says whose it is,
 * and a file over the server's limit is refused before it is sent, naming the limit.
 */
export function useQuickUpload() {
  const upload = useUploadFile();
  const announce = useAnnounceUpload();
  const queryClient = useQueryClient();

  const uploadWithToast = async (file: File): Promise<void> => {
    // Both are usually cached already; a failure to ask leaves the server to decide.
    const [config, people] = await Promise.all([
      queryClient.fetchQuery(clientConfigQueryOptions).catch(() => undefined),
      queryClient.fetchQuery(peopleQueryOptions).catch((): Person[] => []),
    ]);
    const limit = config?.max_upload_bytes;
    if (limit !== undefined && file.size > limit) {
      const fileName = file.name;
      const limitMb = uploadLimitMb(limit);
      notify.error(t`Failed to upload file: ${fileName} is larger than ${limitMb} MB, the most this server accepts.`);
      return;
    }
    const personId = defaultPersonId(people.filter(canWrite), getSelectedPersonId());
    try {
      const record = await upload.mutateAsync({ file, personId });
      const fileName = file.name;
      const person = whose(people, record.person_id, record.person_name);
      notify.success(person === null ? t`Successfully uploaded ${fileName} for you` : t`Successfully uploaded ${fileName} for ${person}`);
      announce(file.name);
    } catch (error) {
      console.error('Error uploading file:', error);
      const message = serverMessage(error);
      // SPEC §8: the server's message where there is one (a 413 names the limit).
      notify.error(message ? t`Failed to upload file: ${message}` : t`Failed to upload file`);
    }
  };
  return { uploadWithToast, isPending: upload.isPending };
}
