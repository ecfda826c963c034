import { useId, type ReactNode } from 'react';
import type { Person } from '@kinchart/shared/people';
import { personOptionLabel } from '../../lib/person-choice';
import { inputClassName } from './field';

export interface PersonSelectProps {
  /** The visible label: "For" on forms, "Person" on filters. */
  label: string;
  people: readonly Person[];
  /** A person's id, or '' for everyone (only with `everyoneLabel`). */
  value: string;
  onChange: (personId: string) => void;
  /** Adds a first choice for everyone (value ''), e.g. "Everyone". */
  everyoneLabel?: string;
  hint?: ReactNode;
  disabled?: boolean;
  containerClassName?: string;
}

/**
 * A labelled choice of person (DESIGN §11): the "For" choice of a form or a screen's person
 * filter. A native select, so phones show their own picker and screen readers know it; a shared
 * person reads "Name (Shared by {username})".
 */
export function PersonSelect({
  label,
  people,
  value,
  onChange,
  everyoneLabel,
  hint,
  disabled,
  containerClassName = '',
}: PersonSelectProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${containerClassName}`}>
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        aria-describedby={hintId}
        onChange={(event) => onChange(event.target.value)}
        className={`${inputClassName} min-h-11`}
      >
        {everyoneLabel !== undefined ? <option value="">{everyoneLabel}</option> : null}
        {people.map((person) => (
          <option key={person.id} value={person.id}>
            {personOptionLabel(person)}
          </option>
        ))}
      </select>
      {hint ? (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
