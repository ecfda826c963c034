import { useId, useState } from 'react';
import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReminderSettings } from '@kinchart/shared/care';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { errorMessage } from '../../../lib/api-client';
import { useReminderSettings } from '../api/get-reminder-settings';
import { useUpdateReminderSettings } from '../api/update-reminder-settings';
import { Switch } from '../../../components/ui/switch';

/** Whose reminders: a person's id and name; `self` is the account holder's own profile. */
export interface ReminderTarget {
  id: string;
  name: string | null;
  self: boolean;
}

/**
 * The switches, in the words of issue 32: about "Mia's" doses, "my" own (and "their" for someone
 * without a name) — whole sentences each, so every language can word them its own way.
 */
function switches(person: ReminderTarget): { key: keyof ReminderSettings; label: string }[] {
  const name = person.name;
  const doses = person.self ? t`Remind me about my doses` : name ? t`Remind me about ${name}'s doses` : t`Remind me about their doses`;
  const appointments = person.self
    ? t`Remind me about my appointments`
    : name
      ? t`Remind me about ${name}'s appointments`
      : t`Remind me about their appointments`;
  return [
    { key: 'dose_reminders', label: doses },
    { key: 'missed_dose_alerts', label: t`Tell me when a dose is missed` },
    { key: 'appointment_reminders', label: appointments },
  ];
}

function ReminderSwitches({ person }: { person: ReminderTarget }) {
  const { t } = useLingui();
  const settings = useReminderSettings(person.id);
  const update = useUpdateReminderSettings(person.id);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const statusId = useId();

  const change = async (key: keyof ReminderSettings, on: boolean) => {
    setStatus(null);
    try {
      await update.mutateAsync({ [key]: on });
      setStatus({ text: t`Saved.`, error: false });
    } catch (error) {
      setStatus({
        text: errorMessage(
          error,
          t`The reminder setting could not be saved.`,
          t`The reminder setting could not be saved. Please try again.`,
        ),
        error: true,
      });
    }
  };

  return (
    <QueryState query={settings} loading={t`Loading...`} error={t`The reminder settings could not be loaded.`} compact>
      {(current) => (
        <div className="flex flex-col gap-2">
          {switches(person).map(({ key, label }) => (
            <Switch
              key={key}
              label={label}
              // While a change is on its way it shows as asked; a refusal shows the stored value again.
              checked={update.isPending && update.variables?.[key] !== undefined ? Boolean(update.variables[key]) : current[key]}
              disabled={update.isPending}
              onChange={(on) => void change(key, on)}
            />
          ))}
          <p id={statusId} role="status" className={`min-h-5 text-sm ${status?.error ? 'font-medium text-red-700' : 'text-green-800'}`}>
            {status?.text}
          </p>
          <p className="text-sm text-slate-700">
            <Trans>They arrive in the app, and by email and on your devices where you turned those on.</Trans>
          </p>
        </div>
      )}
    </QueryState>
  );
}

/** Settings → Family Members and Shared with me: what this account is reminded of about one person (issue 32). */
export function ReminderSettingsDialog({ person, onClose }: { person: ReminderTarget | null; onClose: () => void }) {
  const { t } = useLingui();
  const name = person?.name;
  return (
    <Modal
      open={person !== null}
      onClose={onClose}
      title={person?.self ? t`Reminders for your profile` : name ? t`Reminders for ${name}` : t`Reminders for this person`}
      footer={
        <Button variant="secondary" onClick={onClose}>
          <Trans>Done</Trans>
        </Button>
      }
    >
      {person ? <ReminderSwitches person={person} /> : null}
    </Modal>
  );
}
