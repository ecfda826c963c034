import { t } from '@lingui/core/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { dispatchAppEvent } from '../../../lib/events';
import { addLocalNotification } from '../../../lib/local-notifications';
import { filesQueryKey } from '../api/get-files';
import { formatDateTime } from '../utils/format';

/**
 * What every successful upload does (SPEC §2 Upload, §3 Local notification, §4 Refresh events):
 * a short chime, the local notification 'File "{name}" uploaded on {date-time}', fresh record
 * lists, and the page-wide `filesUpdated` event for the parts that listen.
 */
export function useAnnounceUpload(): (name: string) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (name: string) => {
      // The store's chime is the notification sound (Web Audio; silent where audio is unavailable).
      const when = formatDateTime(new Date());
      addLocalNotification(t`File "${name}" uploaded on ${when}`, { sound: true });
      void queryClient.invalidateQueries({ queryKey: filesQueryKey });
      dispatchAppEvent('filesUpdated', { name });
    },
    [queryClient],
  );
}
