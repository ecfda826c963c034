import { Fragment, useId, useRef, useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '../../../components/ui/button';
import { StatusMessage } from '../../../components/ui/status-message';

export interface RecordSummary {
  title: string;
  badges?: string[];
  details: [label: string, value: string | null | undefined][];
}

export interface RecordFormRenderProps<T> {
  /** The record being edited, or null to add a new one. */
  item: T | null;
  /** True when the form appeared because of something the person did: it takes focus. */
  focusOnMount: boolean;
  /** Call after a successful save: the form empties and the list leaves edit mode. */
  onSaved: () => void;
  /** Present while editing: leaves edit mode without saving. */
  onCancel: (() => void) | undefined;
}

export interface RecordListEditorProps<T> {
  heading: string;
  /** Shown when the list is empty. */
  emptyText: string;
  items: readonly T[];
  getKey: (item: T, index: number) => string;
  /** The id of a record's row, for links to it (issue 33: search results). */
  getAnchorId?: ((item: T) => string) | undefined;
  describe: (item: T) => RecordSummary;
  renderForm: (props: RecordFormRenderProps<T>) => ReactNode;
  /** Resolves true when the record is gone. */
  onRemove: (item: T, index: number) => Promise<boolean> | boolean;
  /** A line under the heading (for example where the changes are saved). */
  note?: ReactNode;
  /** The result of the last add, update or removal. */
  status?: string | null;
  /** More of a record under its details (a medication's schedule). */
  renderExtra?: ((item: T) => ReactNode) | undefined;
}

/**
 * One list of a profile (emergency contacts, providers, medications): the records as cards with
 * Edit and Remove, and under them a form that adds a record or edits the chosen one. Used by the
 * own profile editor (each change is saved at once) and by the family member editor (changes stay
 * in form state until the member is saved) — written once, mounted twice (STYLE habit 4).
 */
export function RecordListEditor<T>({
  heading,
  emptyText,
  items,
  getKey,
  getAnchorId,
  describe,
  renderForm,
  onRemove,
  note,
  status,
  renderExtra,
}: RecordListEditorProps<T>) {
  const { t } = useLingui();
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const [formVersion, setFormVersion] = useState(0);
  const [focusForm, setFocusForm] = useState(false);
  const [removing, setRemoving] = useState<number | null>(null);

  const showForm = (index: number | null) => {
    setEditing(index);
    setFormVersion((v) => v + 1);
    setFocusForm(true);
  };

  const remove = async (index: number) => {
    const item = items[index];
    if (item === undefined) return;
    setRemoving(index);
    const removed = await onRemove(item, index);
    setRemoving(null);
    if (!removed) return;
    if (editing !== null) {
      // Indexes after the removed record move up by one.
      if (editing === index) showForm(null);
      else if (editing > index) setEditing(editing - 1);
    }
    headingRef.current?.focus();
  };

  const editingItem = editing === null ? null : (items[editing] ?? null);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div>
        <h2 id={headingId} ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
          {heading}
        </h2>
        {note ? <p className="mt-1 text-sm text-slate-700">{note}</p> : null}
      </div>

      {items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-slate-700">{emptyText}</p>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2" aria-labelledby={headingId}>
          {items.map((item, index) => {
            const summary = describe(item);
            const title = summary.title;
            const details = summary.details.filter(([, value]) => value !== null && value !== undefined && value !== '');
            return (
              <li
                key={getKey(item, index)}
                id={getAnchorId?.(item)}
                className={`flex flex-col gap-2 rounded-xl border bg-white p-4 shadow-sm ${
                  editing === index ? 'border-brand-600 ring-2 ring-brand-200' : 'border-slate-200'
                }`}
              >
                <div className="flex flex-wrap items-center gap-2">
                  <p className="font-semibold break-words text-slate-900">
                    <bdi>{summary.title}</bdi>
                  </p>
                  {summary.badges?.map((badge) => (
                    <span key={badge} className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">
                      {badge}
                    </span>
                  ))}
                </div>
                {details.length > 0 ? (
                  <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                    {details.map(([label, value]) => (
                      <Fragment key={label}>
                        <dt className="text-slate-600">{label}</dt>
                        <dd className="break-words text-slate-900">
                          <bdi>{value}</bdi>
                        </dd>
                      </Fragment>
                    ))}
                  </dl>
                ) : null}
                {renderExtra?.(item)}
                <div className="mt-auto flex gap-2 pt-1">
                  <Button variant="secondary" size="sm" aria-label={t`Edit ${title}`} onClick={() => showForm(index)}>
                    <Trans>Edit</Trans>
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    className="text-red-700 hover:bg-red-50"
                    aria-label={t`Remove ${title}`}
                    disabled={removing !== null}
                    onClick={() => void remove(index)}
                  >
                    {removing === index ? t`Removing...` : t`Remove`}
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}

      <StatusMessage message={status} />

      <div className="rounded-xl border border-slate-200 bg-slate-50 p-4">
        <Fragment key={formVersion}>
          {renderForm({
            item: editingItem,
            focusOnMount: focusForm,
            onSaved: () => showForm(null),
            onCancel: editing === null ? undefined : () => showForm(null),
          })}
        </Fragment>
      </div>
    </section>
  );
}
