import { useState, type FormEvent } from 'react';
import type { Preferences } from '@kinchart/shared/care';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '../../../components/ui/button';
import { CheckboxField } from '../../../components/ui/form-controls';
import { StatusMessage } from '../../../components/ui/status-message';
import { TimeZoneSelect } from '../../../components/ui/time-zone-select';
import { errorMessage } from '../../../lib/api-client';
import { useUpdatePreferences } from '../api/preferences';
import { WithPreferences } from './with-preferences';

/**
 * Settings → Account Settings → Time zone and reminders (issue 32): the account's zone — the zone of
 * every person who has none of their own — and how reminders reach this account.
 */
export function TimeZoneRemindersSection() {
  return <WithPreferences>{(preferences) => <PreferencesForm preferences={preferences} />}</WithPreferences>;
}

function PreferencesForm({ preferences }: { preferences: Preferences }) {
  const { t } = useLingui();
  const update = useUpdatePreferences();
  const [zone, setZone] = useState(preferences.time_zone);
  const [email, setEmail] = useState(preferences.reminder_email);
  const [push, setPush] = useState(preferences.reminder_push);
  const [minimal, setMinimal] = useState(preferences.reminder_minimal);
  const [status, setStatus] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setStatus(null);
    try {
      await update.mutateAsync({ time_zone: zone, reminder_email: email, reminder_push: push, reminder_minimal: minimal });
      setStatus(t`Preferences saved successfully.`);
    } catch (error) {
      setStatus(errorMessage(error, t`Failed to save your preferences`, t`Error saving your preferences`));
    }
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={(event) => void onSubmit(event)} aria-busy={update.isPending}>
      <p className="text-sm text-slate-700">
        <Trans>
          Dose times, reminders and appointment times follow this time zone for you and for every family member who has no time zone of
          their own.
        </Trans>
      </p>
      <TimeZoneSelect label={t`Time zone`} value={zone} onChange={setZone} disabled={update.isPending} containerClassName="max-w-xl" />
      <fieldset className="flex flex-col">
        <legend className="mb-1 text-sm font-medium text-slate-800">
          <Trans>Send reminders by</Trans>
        </legend>
        <p className="text-sm text-slate-600">
          <Trans>Reminders always appear in your notifications here.</Trans>
        </p>
        <CheckboxField label={t`Email`} checked={email} disabled={update.isPending} onChange={(event) => setEmail(event.target.checked)} />
        <CheckboxField
          label={t`Push notifications on the devices you allow`}
          checked={push}
          disabled={update.isPending}
          onChange={(event) => setPush(event.target.checked)}
        />
        <CheckboxField
          label={t`Minimal email and push (a person’s name only, no medication or provider)`}
          checked={minimal}
          disabled={update.isPending}
          onChange={(event) => setMinimal(event.target.checked)}
        />
      </fieldset>
      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? t`Saving...` : t`Save preferences`}
        </Button>
      </div>
      <StatusMessage message={status} />
    </form>
  );
}
