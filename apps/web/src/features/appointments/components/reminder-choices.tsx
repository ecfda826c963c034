import { plural, t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { useId } from 'react';

/** The lead times the form offers, minutes before the start (issue 32). */
const CHOICES: readonly number[] = [0, 15, 60, 120, 1440, 2880];

/**
 * "At the time of the appointment", "15 minutes before", "2 hours before", "1 day before": an
 * offered lead time or one set elsewhere (the API, an import), in the reader's language.
 */
function leadTimeLabel(minutes: number): string {
  if (minutes === 0) return t`At the time of the appointment`;
  const days = minutes / 1440;
  if (Number.isInteger(days)) return plural(days, { one: '# day before', other: '# days before' });
  const hours = minutes / 60;
  if (Number.isInteger(hours)) return plural(hours, { one: '# hour before', other: '# hours before' });
  return plural(minutes, { one: '# minute before', other: '# minutes before' });
}

/**
 * The appointment form's reminders (issue 32): several lead times may be chosen, none for no
 * reminder. A lead time the form does not offer, set elsewhere, is kept and shown among them.
 */
export function ReminderChoices({
  value,
  onChange,
  disabled,
  className = '',
}: {
  value: readonly number[];
  onChange: (minutes: number[]) => void;
  disabled?: boolean;
  className?: string;
}) {
  const id = useId();
  const choices = [...CHOICES, ...value.filter((m) => !CHOICES.includes(m))]
    .sort((a, b) => a - b)
    .map((minutes) => ({ minutes, label: leadTimeLabel(minutes) }));
  const toggle = (minutes: number, on: boolean) =>
    onChange((on ? [...value, minutes] : value.filter((m) => m !== minutes)).sort((a, b) => b - a));
  return (
    <fieldset className={className} aria-describedby={`${id}-hint`}>
      <legend className="text-sm font-medium text-slate-800">
        <Trans>Reminders</Trans>
      </legend>
      <p id={`${id}-hint`} className="text-sm text-slate-600">
        <Trans>Choose when to be reminded, in the time zone of the person it is for. Choose none for no reminder.</Trans>
      </p>
      <div className="mt-1 grid gap-x-4 sm:grid-cols-2">
        {choices.map((choice) => (
          <label key={choice.minutes} className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium text-slate-800">
            <input
              type="checkbox"
              checked={value.includes(choice.minutes)}
              disabled={disabled}
              onChange={(event) => toggle(choice.minutes, event.target.checked)}
              className="size-5 shrink-0 cursor-pointer rounded border-slate-400 accent-brand-700"
            />
            <span>{choice.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
