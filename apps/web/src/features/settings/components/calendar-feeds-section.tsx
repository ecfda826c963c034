import { useId, useState, type FormEvent } from 'react';
import { t as translate } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, buttonClassName } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { inputClassName } from '../../../components/ui/field';
import { CheckboxField } from '../../../components/ui/form-controls';
import { PersonSelect } from '../../../components/ui/person-select';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { personLabel, usePeople } from '../../../lib/queries/people';
import type { Person } from '@kinchart/shared/people';
import {
  useCalendarFeeds,
  useCreateCalendarFeed,
  useRenewCalendarFeed,
  useRevokeCalendarFeed,
  type CalendarFeed,
  type CalendarFeedCreated,
} from '../api/calendar-feeds';

/**
 * Settings → Account Settings → Calendar (issue 32, docs/decisions/0045): private calendar feeds a
 * phone's calendar subscribes to — the appointments (with their reminders) of one person or of
 * everyone, and the medication times when asked. A new feed's address is shown once; revoking it
 * stops it at once. "New address" gives a feed a new one (shown once too) and stops the old: the way
 * a feed restored by an import, whose address nobody knows, is subscribed to again.
 */
export function CalendarFeedsSection() {
  const feeds = useCalendarFeeds();
  const people = usePeople();
  const [created, setCreated] = useState<CalendarFeedCreated | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm text-slate-700">
        <Trans>
          Add your family’s appointments to your phone’s calendar with a private address. Anyone who has the address can read that calendar,
          so keep it to yourself and revoke it if it gets out.
        </Trans>
      </p>
      <NewFeedForm
        onCreated={(feed) => {
          setStatus(null);
          setCreated(feed);
        }}
      />
      {created ? <NewFeedAddress feed={created} onDone={() => setCreated(null)} /> : null}
      <div className="flex flex-col gap-3">
        <h4 className="font-semibold text-slate-900">
          <Trans>Your calendar feeds</Trans>
        </h4>
        {feeds.isPending ? (
          <p className="text-sm text-slate-700">
            <Trans>Loading calendar feeds...</Trans>
          </p>
        ) : null}
        {feeds.isError ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            <Trans>Your calendar feeds could not be loaded. Please try again later.</Trans>
          </p>
        ) : null}
        {feeds.data?.length === 0 ? (
          <p className="text-sm text-slate-700">
            <Trans>You have no calendar feeds.</Trans>
          </p>
        ) : null}
        {feeds.data && feeds.data.length > 0 ? (
          <ul className="flex flex-col gap-3">
            {feeds.data.map((feed) => (
              <FeedItem key={feed.id} feed={feed} people={people.data} onRevoked={setStatus} />
            ))}
          </ul>
        ) : null}
        <StatusMessage message={status} />
      </div>
    </div>
  );
}

function NewFeedForm({ onCreated }: { onCreated: (feed: CalendarFeedCreated) => void }) {
  const { t } = useLingui();
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
      setFailure(errorMessage(error, t`Failed to create the calendar feed`, t`Error creating the calendar feed`));
    }
  };

  return (
    <form
      className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4"
      onSubmit={(event) => void onSubmit(event)}
      aria-busy={create.isPending}
    >
      <h4 className="font-semibold text-slate-900">
        <Trans>New calendar feed</Trans>
      </h4>
      <PersonSelect
        label={t`Calendar of`}
        people={people.data ?? []}
        value={personId}
        onChange={setPersonId}
        everyoneLabel={t`Everyone`}
        disabled={create.isPending}
        containerClassName="max-w-md"
      />
      <CheckboxField
        label={t`Include medication times`}
        checked={medications}
        disabled={create.isPending}
        onChange={(event) => setMedications(event.target.checked)}
      />
      <CheckboxField
        label={t`Minimal titles`}
        hint={t`Events read only “Appointment” or “Medication”, with no names or places: nothing private on a lock screen.`}
        checked={minimal}
        disabled={create.isPending}
        onChange={(event) => setMinimal(event.target.checked)}
      />
      <div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? t`Creating...` : t`Create calendar feed`}
        </Button>
      </div>
      <StatusMessage message={failure} />
    </form>
  );
}

function NewFeedAddress({ feed, onDone, title }: { feed: CalendarFeedCreated; onDone: () => void; title?: string }) {
  const { t } = useLingui();
  const id = useId();
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(feed.url);
      setCopied(t`Address copied successfully.`);
    } catch {
      setCopied(t`The address could not be copied: select it and copy it yourself.`);
    }
  };
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 rounded-xl border border-brand-300 bg-brand-50 p-4">
      <h4 id={`${id}-title`} className="font-semibold text-slate-900">
        {title ?? <Trans>Your new calendar feed</Trans>}
      </h4>
      <p className="text-sm text-slate-700">
        <Trans>Copy this address into your calendar app (“Add calendar from URL” or “Subscribe”). It is shown only this once.</Trans>
      </p>
      <label htmlFor={`${id}-url`} className="text-sm font-medium text-slate-800">
        <Trans>Calendar feed address</Trans>
      </label>
      <input
        id={`${id}-url`}
        readOnly
        value={feed.url}
        onFocus={(event) => event.target.select()}
        className={`${inputClassName} font-mono text-sm`}
      />
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => void copy()}>
          <Trans>Copy</Trans>
        </Button>
        <a href={feed.webcal_url} className={buttonClassName('secondary')}>
          <Trans>Open in calendar app</Trans>
        </a>
        <Button variant="ghost" onClick={onDone}>
          <Trans>Done</Trans>
        </Button>
      </div>
      <StatusMessage message={copied} />
    </section>
  );
}

/** Whose calendar a feed is: everyone, the person as the people lists name them, or someone no longer visible. */
function feedPerson(feed: CalendarFeed, people: readonly Person[] | undefined): string {
  if (feed.person_id === null) return translate`Everyone`;
  const person = people?.find((p) => p.id === feed.person_id);
  if (person) return personLabel(person);
  // The server names a person only while the account can see them; the people list is still loading, or they are gone.
  if (feed.person_name) return feed.person_name;
  return people ? translate`A person you can no longer see` : translate`Unnamed`;
}

function FeedItem({
  feed,
  people,
  onRevoked,
}: {
  feed: CalendarFeed;
  people: readonly Person[] | undefined;
  onRevoked: (message: string | null) => void;
}) {
  const { t } = useLingui();
  const revoke = useRevokeCalendarFeed();
  const renew = useRenewCalendarFeed();
  const [confirming, setConfirming] = useState(false);
  const [renewing, setRenewing] = useState(false);
  const [address, setAddress] = useState<CalendarFeedCreated | null>(null);
  const whose = feedPerson(feed, people);
  // Whole sentences, never pieces joined: each language words and orders them its own way.
  const options = feed.include_medications
    ? feed.minimal
      ? t`Appointments and medication times, minimal titles`
      : t`Appointments and medication times`
    : feed.minimal
      ? t`Appointments, minimal titles`
      : t`Appointments`;

  const onConfirm = async () => {
    onRevoked(null);
    try {
      await revoke.mutateAsync(feed.id);
      setConfirming(false);
      onRevoked(t`Calendar feed of ${whose} revoked successfully.`);
    } catch (error) {
      setConfirming(false);
      onRevoked(errorMessage(error, t`Failed to revoke the calendar feed`, t`Error revoking the calendar feed`));
    }
  };

  const onRenew = async () => {
    onRevoked(null);
    try {
      const renewed = await renew.mutateAsync(feed.id);
      setRenewing(false);
      setAddress(renewed);
    } catch (error) {
      setRenewing(false);
      onRevoked(
        errorMessage(error, t`Failed to get a new address for the calendar feed`, t`Error getting a new address for the calendar feed`),
      );
    }
  };

  return (
    <li className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 flex-col gap-2">
          <p className="font-semibold text-slate-900">{whose}</p>
          <p className="text-sm text-slate-700">{options}</p>
          {feed.restored ? (
            <p className="text-sm font-medium text-amber-900">
              <Trans>Restored from an export — get a new address to subscribe.</Trans>
            </p>
          ) : null}
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-700">
              <Trans>Created</Trans>
            </dt>
            <dd className="text-slate-900">
              <time dateTime={feed.created_at}>{formatDateTime(feed.created_at)}</time>
            </dd>
            <dt className="text-slate-700">
              <Trans>Last read</Trans>
            </dt>
            <dd className="text-slate-900">
              {feed.last_read_at ? <time dateTime={feed.last_read_at}>{formatDateTime(feed.last_read_at)}</time> : t`Never`}
            </dd>
          </dl>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant={feed.restored ? 'primary' : 'secondary'}
            // A restored feed has no address anyone knows: nothing stops working, so nothing to confirm.
            onClick={() => (feed.restored ? void onRenew() : setRenewing(true))}
            disabled={renew.isPending}
            aria-label={t`Get a new address for the calendar feed of ${whose}`}
          >
            {renew.isPending && feed.restored ? t`Getting a new address...` : t`New address`}
          </Button>
          <Button variant="secondary" onClick={() => setConfirming(true)} aria-label={t`Revoke the calendar feed of ${whose}`}>
            <Trans>Revoke</Trans>
          </Button>
        </div>
      </div>
      {address ? (
        <NewFeedAddress feed={address} title={t`New address of the calendar feed of ${whose}`} onDone={() => setAddress(null)} />
      ) : null}
      <ConfirmDialog
        open={renewing}
        title={t`Get a new address for this calendar feed?`}
        message={t`The old address of the feed of ${whose} stops working at once: calendars subscribed to it stop updating until you subscribe them to the new address.`}
        confirmLabel={t`New address`}
        busyLabel={t`Getting a new address...`}
        busy={renew.isPending}
        onConfirm={() => void onRenew()}
        onCancel={() => setRenewing(false)}
      />
      <ConfirmDialog
        open={confirming}
        title={t`Revoke this calendar feed?`}
        message={t`Calendars subscribed to the feed of ${whose} stop updating at once. This cannot be undone; you can create a new feed.`}
        confirmLabel={t`Revoke`}
        busyLabel={t`Revoking...`}
        busy={revoke.isPending}
        onConfirm={() => void onConfirm()}
        onCancel={() => setConfirming(false)}
      />
    </li>
  );
}
