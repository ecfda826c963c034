/**
 * An on/off switch: a native checkbox with role="switch" (keyboard, forms and screen readers as a
 * checkbox; announced as a switch) drawn as a track and a knob, its label beside it.
 */
export function Switch({
  label,
  checked,
  disabled = false,
  describedBy,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  /** The id of a hint that says what the switch does. */
  describedBy?: string;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium text-slate-900">
      <span className="relative inline-flex h-7 w-12 shrink-0 items-center">
        <input
          type="checkbox"
          role="switch"
          checked={checked}
          disabled={disabled}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.currentTarget.checked)}
          className="peer absolute inset-0 size-full cursor-pointer appearance-none rounded-full bg-slate-500 transition-colors checked:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:opacity-70"
        />
        <span
          aria-hidden="true"
          className="pointer-events-none absolute start-1 size-5 rounded-full bg-white shadow transition-transform peer-checked:translate-x-5 rtl:peer-checked:-translate-x-5"
        />
      </span>
      {label}
    </label>
  );
}
