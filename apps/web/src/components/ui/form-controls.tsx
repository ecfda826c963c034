import { useId, type ComponentProps, type ReactNode } from 'react';
import { inputClassName } from './field';

/*
 * Labelled select, text area and checkbox in the style of components/ui/field.tsx: the hint and
 * error are tied to the control through aria-describedby, and all work with react-hook-form's
 * `register` (React 19 passes `ref` as a prop).
 */

function describedBy(id: string, own: string | undefined, hint: ReactNode, error: string | undefined) {
  return [own, hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined;
}

function HintAndError({ id, hint, error }: { id: string; hint?: ReactNode; error?: string | undefined }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </>
  );
}

export interface SelectFieldProps extends ComponentProps<'select'> {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  containerClassName?: string;
}

export function SelectField({ label, error, hint, id, className = '', containerClassName = '', children, ...props }: SelectFieldProps) {
  const generatedId = useId();
  const selectId = id ?? generatedId;
  return (
    <div className={`flex flex-col gap-1 ${containerClassName}`}>
      <label htmlFor={selectId} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        {...props}
        id={selectId}
        aria-invalid={error ? true : props['aria-invalid']}
        aria-describedby={describedBy(selectId, props['aria-describedby'], hint, error)}
        className={`${inputClassName} ${className}`}
      >
        {children}
      </select>
      <HintAndError id={selectId} hint={hint} error={error} />
    </div>
  );
}

export interface TextareaFieldProps extends ComponentProps<'textarea'> {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  containerClassName?: string;
}

export function TextareaField({ label, error, hint, id, className = '', containerClassName = '', rows = 3, ...props }: TextareaFieldProps) {
  const generatedId = useId();
  const areaId = id ?? generatedId;
  return (
    <div className={`flex flex-col gap-1 ${containerClassName}`}>
      <label htmlFor={areaId} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        {...props}
        id={areaId}
        rows={rows}
        aria-invalid={error ? true : props['aria-invalid']}
        aria-describedby={describedBy(areaId, props['aria-describedby'], hint, error)}
        className={`${inputClassName} ${className}`}
      />
      <HintAndError id={areaId} hint={hint} error={error} />
    </div>
  );
}

export interface CheckboxFieldProps extends Omit<ComponentProps<'input'>, 'type'> {
  label: ReactNode;
  hint?: ReactNode;
  containerClassName?: string;
}

/** A checkbox with its label beside it; the whole row is a large click and touch target. */
export function CheckboxField({ label, hint, id, className = '', containerClassName = '', ...props }: CheckboxFieldProps) {
  const generatedId = useId();
  const boxId = id ?? generatedId;
  return (
    <div className={containerClassName}>
      <label htmlFor={boxId} className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium text-slate-800">
        <input
          {...props}
          id={boxId}
          type="checkbox"
          aria-describedby={describedBy(boxId, props['aria-describedby'], hint, undefined)}
          className={`size-5 shrink-0 cursor-pointer rounded border-slate-400 accent-brand-700 ${className}`}
        />
        <span>{label}</span>
      </label>
      <HintAndError id={boxId} hint={hint} />
    </div>
  );
}
