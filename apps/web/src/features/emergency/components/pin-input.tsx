import { useId, type ComponentProps, type ReactNode } from 'react';
import { t } from '@lingui/core/macro';

/** SPEC §5 PIN / §9: exactly 4 digits. */
export const PIN_LENGTH = 4;

/** SPEC §5 PIN's message under the field, in the reader's language (the app's catalog). */
export function pinFormatMessage(): string {
  return t`PIN must be 4 digits`;
}

/** Keeps digits only and at most four of them (SPEC §5: "limited to digits and at most 4 characters"). */
export function sanitizePin(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, PIN_LENGTH);
}

export function isCompletePin(pin: string): boolean {
  return pin.length === PIN_LENGTH && /^\d+$/.test(pin);
}

export interface PinInputProps extends Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'size'> {
  label: string;
  value: string;
  onValueChange: (pin: string) => void;
  /** Shown in red under the input and announced with it. */
  error?: string | undefined;
  hint?: string | undefined;
  /** "lg" is the emergency page: big digits for a phone in bright light. */
  size?: 'md' | 'lg';
  /** Shown on the input's row, after it (a form's submit button). */
  action?: ReactNode;
}

/**
 * A labelled 4-digit PIN field: a numeric keyboard on phones, anything but digits dropped as it
 * is typed or pasted, then anything past the fourth digit. Not a password field: the PIN is printed on the wearer's card or tag.
 */
export function PinInput({ label, value, onValueChange, error, hint, size = 'md', action, id, className = '', ...rest }: PinInputProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const large = size === 'lg';
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={inputId} className={large ? 'text-lg font-bold text-black' : 'text-sm font-medium text-slate-800'}>
        {label}
      </label>
      <div className="flex flex-wrap items-center gap-3">
        <input
          {...rest}
          id={inputId}
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          // No maxLength: the browser would cut a pasted "12-34" to "12-3" before sanitizePin sees it;
          // sanitizePin keeps the digits first, then the first four (SPEC §5 PIN).
          value={value}
          onChange={(event) => onValueChange(sanitizePin(event.target.value))}
          aria-invalid={error ? true : undefined}
          aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
          className={
            large
              ? 'block w-full max-w-[12rem] rounded-xl border-2 border-black bg-white px-4 py-3 text-center font-mono text-4xl font-bold tracking-[0.4em] text-black aria-invalid:border-red-800'
              : 'block w-32 rounded-lg border border-slate-400 bg-white px-3 py-2 text-center font-mono text-lg tracking-[0.3em] text-slate-900 focus:border-brand-600 aria-invalid:border-red-700'
          }
        />
        {action}
      </div>
      {hint ? (
        <p id={hintId} className={large ? 'text-base text-black' : 'text-sm text-slate-600'}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className={large ? 'text-base font-bold text-red-800' : 'text-sm font-medium text-red-700'}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
