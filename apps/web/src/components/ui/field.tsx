import { useId, type ComponentProps, type ReactNode } from 'react';

export interface FieldProps extends ComponentProps<'input'> {
  label: ReactNode;
  /** Shown under the input in red and announced with it. */
  error?: string | undefined;
  /** A short help text under the input, also announced with it. */
  hint?: ReactNode;
  /** Classes for the wrapper. */
  containerClassName?: string;
}

export const inputClassName =
  'block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 ' +
  'placeholder:text-slate-500 focus:border-brand-600 disabled:cursor-not-allowed disabled:bg-slate-100 ' +
  'aria-invalid:border-red-700';

/**
 * A labelled input with its hint and error tied to it through aria-describedby. Works with
 * react-hook-form's `register` (React 19 passes `ref` as a prop).
 */
export function Field({ label, error, hint, id, className = '', containerClassName = '', ...inputProps }: FieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [inputProps['aria-describedby'], hintId, errorId].filter(Boolean).join(' ') || undefined;

  return (
    <div className={`flex flex-col gap-1 ${containerClassName}`}>
      <label htmlFor={inputId} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        {...inputProps}
        id={inputId}
        aria-invalid={error ? true : inputProps['aria-invalid']}
        aria-describedby={describedBy}
        className={`${inputClassName} ${className}`}
      />
      {hint ? (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
