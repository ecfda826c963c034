import { useId, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { PushSubscriptionInfo } from '@kinchart/shared/care';
import { Button } from '../../../components/ui/button';
import { deviceLabel } from '../../../lib/device-name';
import { formatDate } from '../../../lib/format';
import { usePushSubscriptions, useStopPushSubscription } from '../api/push-subscriptions';
import { thisDeviceSubscriptionId } from '../lib/push-device';

type Status = { text: string; error: boolean } | null;

/**
 * Settings → Reminders on this device (docs/decisions/0044, "Later changes"): the account's OTHER
 * browsers that receive reminders, each with the day it subscribed and "Stop reminders" — for a
 * lost phone: its reminders stop, and the Taken and Snooze buttons of those it already shows stop
 * working. Signing a session out (Sessions, above) stops the reminders of the browsers subscribed
 * in it too; a browser whose session simply expired keeps receiving them, so it is listed here.
 */
export function OtherPushDevices() {
  const headingId = useId();
  const subscriptions = usePushSubscriptions();
  const [status, setStatus] = useState<Status>(null);

  if (subscriptions.isPending) return null;
  if (subscriptions.isError) {
    return (
      <p role="alert" className="text-sm font-medium text-red-700">
        <Trans>The other browsers that receive your reminders could not be loaded. Please try again later.</Trans>
      </p>
    );
  }
  const mine = thisDeviceSubscriptionId();
  const others = subscriptions.data.filter((s) => !s.this_session && s.id !== mine);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 border-t border-slate-200 pt-4">
      <h4 id={headingId} className="font-semibold text-slate-900">
        <Trans>Other browsers that receive your reminders</Trans>
      </h4>
      {others.length === 0 ? (
        <p className="text-sm text-slate-700">
          <Trans>No other browser receives your reminders.</Trans>
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            <Trans>
              Lost a phone, or no longer use a computer? Stop its reminders: the Taken and Snooze buttons it shows stop working too.
            </Trans>
          </p>
          <ul className="flex flex-col gap-3">
            {others.map((s) => (
              <OtherDevice key={s.id} subscription={s} onDone={setStatus} />
            ))}
          </ul>
        </>
      )}
      <p role="status" className={`text-sm ${status?.error ? 'text-red-700' : 'text-green-800'}`}>
        {status?.text ?? null}
      </p>
    </section>
  );
}

function OtherDevice({ subscription, onDone }: { subscription: PushSubscriptionInfo; onDone: (status: Status) => void }) {
  const { t } = useLingui();
  const stop = useStopPushSubscription();
  const name = deviceLabel(subscription.label);
  const since = formatDate(subscription.created_at);
  const onStop = async () => {
    onDone(null);
    try {
      await stop.mutateAsync(subscription.id);
      onDone({ text: t`${name} no longer receives your reminders.`, error: false });
    } catch {
      onDone({ text: t`The reminders of ${name} could not be stopped just now. Please try again.`, error: true });
    }
  };
  return (
    <li className="flex flex-col gap-2 rounded-xl border border-slate-200 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-semibold text-slate-900">{name}</p>
        <p className="text-sm text-slate-700">
          <Trans>
            Receives reminders since <time dateTime={subscription.created_at}>{since}</time>
          </Trans>
        </p>
      </div>
      {/* Named apart for screen readers (two phones can be the same browser); the name starts with the visible text. */}
      <Button
        variant="secondary"
        size="sm"
        className="shrink-0 self-start sm:self-center"
        onClick={() => void onStop()}
        disabled={stop.isPending}
        aria-label={stop.isPending ? undefined : t`Stop reminders on ${name}, since ${since}`}
      >
        {stop.isPending ? t`Stopping…` : t`Stop reminders`}
      </Button>
    </li>
  );
}
