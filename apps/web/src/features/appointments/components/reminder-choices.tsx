import { useId } from 'react';

/** The lead times the form offers, minutes before the start (issue 32). */
const CHOICES: readonly { minutes: number; label: string }[] = [
  { minutes: 0, label: 'At the time of the appointment' },
  { minutes: 15, label: '15 minutes before' },
  { minutes: 60, label: '1 hour before' },
  { minutes: 120, label: '2 hours before' },
  { minutes: 1440, label: '1 day before' },
  { minutes: 2880, label: '2 days before' },
];

/** "45 minutes before", "3 hours before", "4 days before": a lead time set elsewhere (the API, an import). */
function leadTimeLabel(minutes: number): string {
  const of = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} before`;
  if (minutes % 1440 === 0) return of(minutes / 1440, 'day');
  if (minutes % 60 === 0) return of(minutes / 60, 'hour');
  return of(minutes, 'minute');
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
  const offered = CHOICES.map((c) => c.minutes);
  const choices = [
    ...CHOICES,
    ...value.filter((m) => !offered.includes(m)).map((minutes) => ({ minutes, label: leadTimeLabel(minutes) })),
  ].sort((a, b) => a.minutes - b.minutes);
  const toggle = (minutes: number, on: boolean) =>
    onChange((on ? [...value, minutes] : value.filter((m) => m !== minutes)).sort((a, b) => b - a));
  return (
    <fieldset className={className} aria-describedby={`${id}-hint`}>
      <legend className="text-sm font-medium text-slate-800">Reminders</legend>
      <p id={`${id}-hint`} className="text-sm text-slate-600">
        Choose when to be reminded, in the time zone of the person it is for. Choose none for no reminder.
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
