import { useId, useState, type FormEvent } from 'react';
import { Button, buttonClassName } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { inputClassName } from '../../../components/ui/field';
import { CheckboxField } from '../../../components/ui/form-controls';
import { PersonSelect } from '../../../components/ui/person-select';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { usePeople } from '../../../lib/queries/people';
import {
  useCalendarFeeds,
  useCreateCalendarFeed,
  useRevokeCalendarFeed,
  type CalendarFeed,
  type CalendarFeedCreated,
} from '../api/calendar-feeds';

/**
 * Settings → Account Settings → Calendar (issue 32, docs/decisions/0045): private calendar feeds a
 * phone's calendar subscribes to — the appointments (with their reminders) of one person or of
 * everyone, and the medication times when asked. A new feed's address is shown once; revoking it
 * stops it at once.
 */
export function CalendarFeedsSection() {
  const feeds = useCalendarFeeds();
  const [created, setCreated] = useState<CalendarFeedCreated | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm text-slate-700">
        Add your family’s appointments to your phone’s calendar with a private address. Anyone who has the address can read that calendar,
        so keep it to yourself and revoke it if it gets out.
      </p>
      <NewFeedForm
        onCreated={(feed) => {
          setStatus(null);
          setCreated(feed);
        }}
      />
      {created ? <NewFeedAddress feed={created} onDone={() => setCreated(null)} /> : null}
      <div className="flex flex-col gap-3">
        <h4 className="font-semibold text-slate-900">Your calendar feeds</h4>
        {feeds.isPending ? <p className="text-sm text-slate-700">Loading calendar feeds...</p> : null}
        {feeds.isError ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            Your calendar feeds could not be loaded. Please try again later.
          </p>
        ) : null}
        {feeds.data?.length === 0 ? <p className="text-sm text-slate-700">You have no calendar feeds.</p> : null}
        {feeds.data && feeds.data.length > 0 ? (
          <ul className="flex flex-col gap-3">
            {feeds.data.map((feed) => (
              <FeedItem key={feed.id} feed={feed} onRevoked={setStatus} />
            ))}
          </ul>
        ) : null}
        <StatusMessage message={status} />
      </div>
    </div>
  );
}

function NewFeedForm({ onCreated }: { onCreated: (feed: CalendarFeedCreated) => void }) {
  const people = usePeople();
  const create = useCreateCalendarFeed();
  const [personId, setPersonId] = useState('');
  const [medications, setMedications] = useState(false);
  const [minimal, setMinimal] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    try {
      onCreated(await create.mutateAsync({ person_id: personId || null, include_medications: medications, minimal }));
    } catch (error) {
      setFailure(errorMessage(error, 'Failed to create the calendar feed', 'Error creating the calendar feed'));
    }
  };

  return (
    <form
      className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4"
      onSubmit={(event) => void onSubmit(event)}
      aria-busy={create.isPending}
    >
      <h4 className="font-semibold text-slate-900">New calendar feed</h4>
      <PersonSelect
        label="Calendar of"
        people={people.data ?? []}
        value={personId}
        onChange={setPersonId}
        everyoneLabel="Everyone"
        disabled={create.isPending}
        containerClassName="max-w-md"
      />
      <CheckboxField
        label="Include medication times"
        checked={medications}
        disabled={create.isPending}
        onChange={(event) => setMedications(event.target.checked)}
      />
      <CheckboxField
        label="Minimal titles"
        hint="Events read only “Appointment” or “Medication”, with no names or places: nothing private on a lock screen."
        checked={minimal}
        disabled={create.isPending}
        onChange={(event) => setMinimal(event.target.checked)}
      />
      <div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating...' : 'Create calendar feed'}
        </Button>
      </div>
      <StatusMessage message={failure} />
    </form>
  );
}

function NewFeedAddress({ feed, onDone }: { feed: CalendarFeedCreated; onDone: () => void }) {
  const id = useId();
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(feed.url);
      setCopied('Address copied successfully.');
    } catch {
      setCopied('The address could not be copied: select it and copy it yourself.');
    }
  };
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 rounded-xl border border-brand-300 bg-brand-50 p-4">
      <h4 id={`${id}-title`} className="font-semibold text-slate-900">
        Your new calendar feed
      </h4>
      <p className="text-sm text-slate-700">
        Copy this address into your calendar app (“Add calendar from URL” or “Subscribe”). It is shown only this once.
      </p>
      <label htmlFor={`${id}-url`} className="text-sm font-medium text-slate-800">
        Calendar feed address
      </label>
      <input
        id={`${id}-url`}
        readOnly
        value={feed.url}
        onFocus={(event) => event.target.select()}
        className={`${inputClassName} font-mono text-sm`}
      />
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => void copy()}>Copy</Button>
        <a href={feed.webcal_url} className={buttonClassName('secondary')}>
          Open in calendar app
        </a>
        <Button variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
      <StatusMessage message={copied} />
    </section>
  );
}

function FeedItem({ feed, onRevoked }: { feed: CalendarFeed; onRevoked: (message: string | null) => void }) {
  const revoke = useRevokeCalendarFeed();
  const [confirming, setConfirming] = useState(false);
  const whose = feed.person_id === null ? 'Everyone' : (feed.person_name ?? 'Unnamed');
  const options = [feed.include_medications ? 'Appointments and medication times' : 'Appointments', feed.minimal ? 'minimal titles' : null]
    .filter(Boolean)
    .join(', ');

  const onConfirm = async () => {
    onRevoked(null);
    try {
      await revoke.mutateAsync(feed.id);
      setConfirming(false);
      onRevoked(`Calendar feed of ${whose} revoked successfully.`);
    } catch (error) {
      setConfirming(false);
      onRevoked(errorMessage(error, 'Failed to revoke the calendar feed', 'Error revoking the calendar feed'));
    }
  };

  return (
    <li className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="flex min-w-0 flex-col gap-2">
        <p className="font-semibold text-slate-900">{whose}</p>
        <p className="text-sm text-slate-700">{options}</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-slate-700">Created</dt>
          <dd className="text-slate-900">
            <time dateTime={feed.created_at}>{formatDateTime(feed.created_at)}</time>
          </dd>
          <dt className="text-slate-700">Last read</dt>
          <dd className="text-slate-900">
            {feed.last_read_at ? <time dateTime={feed.last_read_at}>{formatDateTime(feed.last_read_at)}</time> : 'Never'}
          </dd>
        </dl>
      </div>
      <div>
        <Button variant="secondary" onClick={() => setConfirming(true)} aria-label={`Revoke the calendar feed of ${whose}`}>
          Revoke
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Revoke this calendar feed?"
        message={`Calendars subscribed to the feed of ${whose} stop updating at once. This cannot be undone; you can create a new feed.`}
        confirmLabel="Revoke"
        busyLabel="Revoking..."
        busy={revoke.isPending}
        onConfirm={() => void onConfirm()}
        onCancel={() => setConfirming(false)}
      />
    </li>
  );
}
