import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { errorMessage } from '../../../lib/api-client';
import { useAuth } from '../../auth/api/check-auth';
import { useAccessHistory } from '../api/get-access-history';
import { describeAccess, describeAccesses, formatTime, formatWhen } from '../utils/describe-access';
import type { SharePerson } from '../utils/share-person';

export interface AccessHistoryDialogProps {
  /** The dialog shows while a person is given; null closes it. */
  person: SharePerson | null;
  onClose: () => void;
}

/**
 * Settings → Access history (DESIGN §11): who opened or changed a person's chart through a share,
 * and what happened to the shares themselves — who, what, when, newest first. Owner only. Reads by
 * one person within 10 minutes come as one entry, with how many and from when to when.
 */
export function AccessHistoryDialog({ person, onClose }: AccessHistoryDialogProps) {
  const { t } = useLingui();
  if (!person) return null;
  const name = person.label;
  return (
    <Modal
      open
      onClose={onClose}
      title={t`Access history: ${name}`}
      description={t`What the people you share ${name} with have opened or changed, newest first.`}
      size="lg"
      footer={
        <Button variant="secondary" onClick={onClose}>
          {t`Close`}
        </Button>
      }
    >
      <AccessHistoryList person={person} />
    </Modal>
  );
}

/** "7 times, from 2:21 PM to 2:30 PM", or "3 times, at 2:21 PM" within one minute. */
function timesWords(event: { count: number; first_at: string; created_at: string }): string {
  const from = formatTime(event.first_at);
  const to = formatTime(event.created_at);
  return from === to
    ? plural(event.count, { one: `# time, at ${to}`, other: `# times, at ${to}` })
    : plural(event.count, { one: `# time, from ${from} to ${to}`, other: `# times, from ${from} to ${to}` });
}

function AccessHistoryList({ person }: { person: SharePerson }) {
  const { t } = useLingui();
  const listId = useId();
  const name = person.label;
  const history = useAccessHistory(person.id);
  const auth = useAuth();
  const me = auth.data?.authenticated ? auth.data.user.username : null;

  return (
    <QueryState
      query={history}
      loading={t`Loading...`}
      error={(error) => errorMessage(error, t`Failed to load the access history`, t`Error loading the access history`)}
      isEmpty={(events) => events.length === 0}
      empty={t`Nothing yet. When someone you share ${name} with opens or changes anything, it shows here.`}
      compact
    >
      {(events) => (
        <ol id={listId} aria-label={t`Access history`} className="flex flex-col divide-y divide-slate-200">
          {events.map((event) => (
            <li key={event.id} className="flex flex-col gap-0.5 py-2.5 sm:grid sm:grid-cols-[11rem_1fr] sm:gap-4">
              <time dateTime={event.created_at} className="text-sm text-slate-700 sm:pt-0.5">
                {formatWhen(event.created_at)}
              </time>
              <span className="flex min-w-0 flex-col">
                <span className="font-semibold [overflow-wrap:anywhere] text-slate-900">
                  {event.actor === me ? t({ message: 'You', comment: 'Access history: the reader themself did it' }) : event.actor}
                </span>
                <span className="break-words text-slate-800">{event.count > 1 ? describeAccesses(event) : describeAccess(event)}</span>
                {event.count > 1 ? <span className="text-sm text-slate-700">{timesWords(event)}</span> : null}
              </span>
            </li>
          ))}
        </ol>
      )}
    </QueryState>
  );
}
