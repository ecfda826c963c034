import { useId, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { Coding } from '@kinchart/shared/clinical';
import { Button } from '../../../components/ui/button';
import { codingLabels } from '../utils/clinical-text';

export interface ItemCardProps {
  title: string;
  /** Beside the title: a status, an out-of-range marker. */
  badges?: ReactNode;
  /** Label and value; an empty value shows a dash. Dates are shown as they were given (DESIGN §12). */
  details: readonly (readonly [string, ReactNode])[];
  notes: string | null;
  codings: readonly Coding[];
  /** Without them (a viewer) the card has no buttons. */
  onEdit?: (() => void) | undefined;
  onDelete?: (() => void) | undefined;
  headingLevel?: 3 | 4;
}

/**
 * The words of an item's buttons, "Edit" and "Delete"; the item's title follows each, for screen
 * readers only. The verb stands alone (never one message with the title), so languages that put
 * the object first ("…を編集") never show a stray particle beside the hidden title.
 */
export function useItemActionNames() {
  const { t } = useLingui();
  return {
    editWord: t({ message: 'Edit', comment: 'Button on a health record item' }),
    deleteWord: t({ message: 'Delete', comment: 'Button on a health record item' }),
  };
}

/**
 * One clinical item. The buttons read "Edit" and "Delete" and their accessible names add the
 * item's title, so a screen-reader user tabbing through the list knows which one they are on.
 */
export function ItemCard({ title, badges, details, notes, codings, onEdit, onDelete, headingLevel = 3 }: ItemCardProps) {
  const titleId = useId();
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  const codes = codingLabels(codings);
  const { editWord, deleteWord } = useItemActionNames();
  return (
    <article aria-labelledby={titleId} className="flex h-full flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <Heading id={titleId} className="min-w-0 text-base font-semibold break-words text-slate-900">
          {title}
        </Heading>
        {badges ? <div className="flex flex-wrap gap-1.5">{badges}</div> : null}
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {details.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-600">{label}</dt>
            <dd className="min-w-0 break-words text-slate-900">{value === null || value === '' ? '—' : value}</dd>
          </div>
        ))}
      </dl>
      {notes ? <p className="text-sm break-words whitespace-pre-line text-slate-700">{notes}</p> : null}
      {codes.length > 0 ? (
        <p className="text-xs text-slate-600">
          <span className="sr-only">
            <Trans>Codes:</Trans>{' '}
          </span>
          {codes.join(' · ')}
        </p>
      ) : null}
      {onEdit || onDelete ? (
        <div className="mt-auto flex flex-wrap gap-2">
          {onEdit ? (
            <Button variant="secondary" size="sm" onClick={onEdit}>
              {editWord} <span className="sr-only">{title}</span>
            </Button>
          ) : null}
          {onDelete ? (
            <Button variant="secondary" size="sm" className="text-red-700! hover:bg-red-50!" onClick={onDelete}>
              {deleteWord} <span className="sr-only">{title}</span>
            </Button>
          ) : null}
        </div>
      ) : null}
    </article>
  );
}

/** A status as a small badge ("Active", "Completed"). */
export function StatusBadge({ children }: { children: ReactNode }) {
  return <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-800">{children}</span>;
}
