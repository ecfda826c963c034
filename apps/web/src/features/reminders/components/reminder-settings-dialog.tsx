import { useId, useState } from 'react';
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

/** "Mia's", or "my" for your own profile (and "their" for someone without a name). */
function whose(person: ReminderTarget): string {
  if (person.self) return 'my';
  return person.name ? `${person.name}'s` : 'their';
}

/** The switches, in the words of issue 32. */
function switches(person: ReminderTarget): { key: keyof ReminderSettings; label: string }[] {
  return [
    { key: 'dose_reminders', label: `Remind me about ${whose(person)} doses` },
    { key: 'missed_dose_alerts', label: 'Tell me when a dose is missed' },
    { key: 'appointment_reminders', label: `Remind me about ${whose(person)} appointments` },
  ];
}

function ReminderSwitches({ person }: { person: ReminderTarget }) {
  const settings = useReminderSettings(person.id);
  const update = useUpdateReminderSettings(person.id);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const statusId = useId();

  const change = async (key: keyof ReminderSettings, on: boolean) => {
    setStatus(null);
    try {
      await update.mutateAsync({ [key]: on });
      setStatus({ text: 'Saved.', error: false });
    } catch (error) {
      setStatus({
        text: errorMessage(error, 'The reminder setting could not be saved.', 'The reminder setting could not be saved. Please try again.'),
        error: true,
      });
    }
  };

  return (
    <QueryState query={settings} loading="Loading..." error="The reminder settings could not be loaded." compact>
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
          <p className="text-sm text-slate-700">They arrive in the app, and by email and on your devices where you turned those on.</p>
        </div>
      )}
    </QueryState>
  );
}

/** Settings → Family Members and Shared with me: what this account is reminded of about one person (issue 32). */
export function ReminderSettingsDialog({ person, onClose }: { person: ReminderTarget | null; onClose: () => void }) {
  return (
    <Modal
      open={person !== null}
      onClose={onClose}
      title={person?.self ? 'Reminders for your profile' : `Reminders for ${person?.name ?? 'this person'}`}
      footer={
        <Button variant="secondary" onClick={onClose}>
          Done
        </Button>
      }
    >
      {person ? <ReminderSwitches person={person} /> : null}
    </Modal>
  );
}
