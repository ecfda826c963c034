import { useId, type BaseSyntheticEvent, type ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { Button } from '../../../components/ui/button';

/** The props every record form (contact, provider, medication) takes. */
export interface RecordFormProps<T, V> {
  variant: 'profile' | 'family';
  item: T | null;
  focusOnMount: boolean;
  /** Resolves true once the record is saved; the form then empties. */
  onSubmit: (values: V) => Promise<boolean> | boolean;
  onCancel?: (() => void) | undefined;
}

export interface RecordFormFrameProps {
  /** The form's heading, which also names it. */
  heading: string;
  submitLabel: string;
  isSubmitting: boolean;
  onSubmit: (event?: BaseSyntheticEvent) => Promise<void>;
  /** Present while editing: shows Cancel Edit. */
  onCancel?: (() => void) | undefined;
  /** The fields, laid out in two columns from the sm breakpoint. */
  children: ReactNode;
}

/** The heading, field grid and Add/Save + Cancel Edit buttons shared by the contact, provider and medication forms. */
export function RecordFormFrame({ heading, submitLabel, isSubmitting, onSubmit, onCancel, children }: RecordFormFrameProps) {
  const headingId = useId();
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby={headingId} className="flex flex-col gap-4">
      <h3 id={headingId} className="font-semibold text-slate-900">
        {heading}
      </h3>
      <div className="grid gap-4 sm:grid-cols-2">{children}</div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={isSubmitting}>
          {submitLabel}
        </Button>
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            <Trans>Cancel Edit</Trans>
          </Button>
        ) : null}
      </div>
    </form>
  );
}
