import { useId, useRef, useState, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { UseQueryResult } from '@tanstack/react-query';
import { QueryState } from '../../../components/query-state';
import { AlertMessage } from '../../../components/ui/alert-message';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { serverMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import type { RecordTexts } from '../utils/record-texts';

/** What a list may offer on each item; absent for a viewer (DESIGN §11: viewers only read). */
export interface RecordActions<T> {
  edit?: ((item: T) => void) | undefined;
  remove?: ((item: T) => void) | undefined;
}

export interface RecordSectionProps<T extends { id: string }> {
  /** What the list says about its items ("Add immunization", "Loading immunizations..."). */
  texts: RecordTexts;
  /** The person's list of items. */
  items: UseQueryResult<T[]>;
  /** Deletes one item by its id and answers the server's message. */
  remove: { mutateAsync: (id: string) => Promise<{ message: string }>; isPending: boolean };
  /** Editors, managers and owners add, edit and delete; viewers only read. */
  canEdit: boolean;
  heading: string;
  /** A line under the heading. */
  intro?: ReactNode;
  emptyText: string;
  /** How the items are listed (cards, or groups with charts). */
  renderItems: (items: T[], actions: RecordActions<T>) => ReactNode;
  /** The add (item null) or edit dialog. */
  renderForm: (item: T | null, onClose: () => void) => ReactNode;
  /** The item's name in the delete question ("MMR (2019-05)"). */
  titleOf: (item: T) => string;
  /** More buttons beside Add (the vaccination record). */
  extraActions?: ReactNode;
}

/**
 * One list of one person's health records (DESIGN §12): its loading, failure and empty states,
 * and — for those who may write — the add and edit dialog and a delete that asks first. What the
 * server answers ("Immunization added successfully!") is what the person is told. The clinical
 * kinds (clinical-section) and the allergies (allergy-section) are both this one section.
 */
export function RecordSection<T extends { id: string }>({
  texts,
  items,
  remove,
  canEdit,
  heading,
  intro,
  emptyText,
  renderItems,
  renderForm,
  titleOf,
  extraActions,
}: RecordSectionProps<T>) {
  const { t } = useLingui();
  const deleteQuestion = (name: string) => t`Are you sure you want to delete ${name}? This action cannot be undone.`;
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [form, setForm] = useState<{ item: T | null } | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const [deleteFailure, setDeleteFailure] = useState<string | null>(null);

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteFailure(null);
    try {
      const { message } = await remove.mutateAsync(deleting.id);
      notify.success(message);
      // The card whose button opened the dialog is gone: keep the keyboard in this section.
      requestAnimationFrame(() => headingRef.current?.focus());
    } catch (error) {
      setDeleteFailure(serverMessage(error) ?? t(texts.deleteFailed));
    } finally {
      setDeleting(null);
    }
  };

  const actions: RecordActions<T> = canEdit
    ? {
        edit: (item) => setForm({ item }),
        remove: (item) => {
          setDeleteFailure(null);
          setDeleting(item);
        },
      }
    : {};

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-col gap-1">
          <h2 id={headingId} ref={headingRef} tabIndex={-1} className="text-xl font-semibold text-slate-900">
            {heading}
          </h2>
          {intro ? <p className="text-sm text-slate-700">{intro}</p> : null}
        </div>
        {canEdit || extraActions ? (
          <div className="flex flex-wrap gap-2">
            {extraActions}
            {canEdit ? <Button onClick={() => setForm({ item: null })}>{t(texts.add)}</Button> : null}
          </div>
        ) : null}
      </div>
      {deleteFailure ? <AlertMessage>{deleteFailure}</AlertMessage> : null}
      <QueryState
        query={items}
        loading={t(texts.loading)}
        error={(error) => serverMessage(error) ?? t(texts.loadFailed)}
        isEmpty={(list) => list.length === 0}
        empty={emptyText}
      >
        {(list) => renderItems(list, actions)}
      </QueryState>
      {form ? renderForm(form.item, () => setForm(null)) : null}
      <ConfirmDialog
        open={deleting !== null}
        title={t(texts.deleteTitle)}
        message={deleting ? deleteQuestion(titleOf(deleting)) : ''}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}
