import { useEffect, useId, useState } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { pushSubscriptionsQueryKey } from '../api/push-subscriptions';
import { clientConfigQueryOptions } from '../../../lib/queries/client-config';
import type { PushState } from '../lib/push-device';
import { pushState, sendTestPush, turnOffPush, turnOnPush } from '../lib/push-device';
import { Button } from '../../../components/ui/button';
import { Switch } from '../../../components/ui/switch';

type Status = { text: string; error: boolean } | null;

const STATE_TEXT: Record<PushState, MessageDescriptor> = {
  unsupported: msg`This browser cannot show reminders. On an iPhone or iPad, add Kinchart to the Home Screen first.`,
  denied: msg`Notifications are blocked for Kinchart in this browser. Allow them in the browser’s site settings, then turn this on.`,
  off: msg`Reminders are not shown on this device.`,
  on: msg`Reminders appear on this device, with Taken and Snooze 10 min for each dose.`,
};

/**
 * Settings → "Reminders on this device" (issue 32): a per-device switch for Web Push. On, this
 * browser asks for permission and subscribes; medication and appointment reminders then appear as
 * notifications here even when Kinchart is closed. Off removes the subscription.
 */
export function PushDeviceSetting() {
  const { t } = useLingui();
  const hintId = useId();
  const config = useQuery(clientConfigQueryOptions);
  const queryClient = useQueryClient();
  const [state, setState] = useState<PushState | null>(null);
  const [applying, setApplying] = useState<boolean | null>(null);
  const [status, setStatus] = useState<Status>(null);

  useEffect(() => {
    let live = true;
    void pushState()
      .catch((): PushState => 'off')
      .then((s) => {
        if (live) setState(s);
      });
    return () => {
      live = false;
    };
  }, []);

  const on = applying ?? state === 'on';
  const disabled = applying !== null || state === null || state === 'unsupported' || !config.data?.vapid_public_key;

  const onChange = async (next: boolean) => {
    setApplying(next);
    setStatus(null);
    try {
      const result = next ? await turnOnPush(config.data?.vapid_public_key ?? '') : await turnOffPush();
      setState(result);
      if (next && result !== 'on') setStatus({ text: t(STATE_TEXT[result]), error: true });
      else
        setStatus({ text: result === 'on' ? t`Reminders are on for this device.` : t`Reminders are off for this device.`, error: false });
    } catch {
      setStatus({ text: t`This device could not be set up for reminders just now. Please try again.`, error: true });
    } finally {
      setApplying(null);
      // The list of the account's browsers (other-push-devices.tsx) leaves this one out by its id.
      void queryClient.invalidateQueries({ queryKey: pushSubscriptionsQueryKey });
    }
  };

  const [testing, setTesting] = useState(false);
  const onTest = async () => {
    setTesting(true);
    setStatus(null);
    try {
      const result = await sendTestPush();
      if (result === 'gone') {
        setState('off');
        setStatus({ text: t`This device no longer receives reminders. Turn them on again.`, error: true });
      } else setStatus({ text: t`A test notification is on its way to this device.`, error: false });
    } catch {
      setStatus({ text: t`The test notification could not be sent just now. Please try again.`, error: true });
    } finally {
      setTesting(false);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <p id={hintId} className="text-sm text-slate-700">
        <Trans>
          Get medication and appointment reminders as notifications on this phone or computer, even when Kinchart is closed. They name the
          person and the medication or doctor only; choose “minimal” reminders to leave the medication out. Which people you are reminded
          about is chosen with each person’s Reminders button under Family Members.
        </Trans>
      </p>
      <Switch
        label={t`Reminders on this device`}
        checked={on}
        disabled={disabled}
        describedBy={hintId}
        onChange={(next) => void onChange(next)}
      />
      {state === 'on' && applying === null ? (
        <div>
          <Button variant="secondary" onClick={() => void onTest()} disabled={testing}>
            {testing ? t`Sending…` : t`Send a test notification`}
          </Button>
        </div>
      ) : null}
      <p role="status" className={`text-sm ${status?.error ? 'text-red-700' : status ? 'text-green-800' : 'text-slate-800'}`}>
        {status?.text ?? (state ? t(STATE_TEXT[state]) : null)}
      </p>
    </div>
  );
}
