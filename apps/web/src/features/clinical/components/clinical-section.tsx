import { useId, useRef, useState, type ReactNode } from 'react';
import { CLINICAL_LABELS, type ClinicalKind } from '@kinchart/shared/clinical';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { serverMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import type { ClinicalItem } from '../api/clinical-paths';
import { useDeleteClinicalItem } from '../api/delete-clinical-item';
import { useClinicalItems } from '../api/get-clinical-items';
import { ClinicalFormModal } from './clinical-form-modal';
import { AlertMessage } from '../../../components/ui/alert-message';

/** What a list may offer on each item; absent for a viewer (DESIGN §11: viewers only read). */
export interface ItemActions<K extends ClinicalKind> {
  edit?: ((item: ClinicalItem<K>) => void) | undefined;
  remove?: ((item: ClinicalItem<K>) => void) | undefined;
}

export interface ClinicalSectionProps<K extends ClinicalKind> {
  kind: K;
  personId: string;
  /** Editors, managers and owners add, edit and delete; viewers only read. */
  canEdit: boolean;
  heading: string;
  emptyText: string;
  /** How the kind lists its items (cards, or groups with charts). */
  renderItems: (items: ClinicalItem<K>[], actions: ItemActions<K>) => ReactNode;
  /** The item's name in the delete question ("MMR (2019-05)"). */
  titleOf: (item: ClinicalItem<K>) => string;
  /** More buttons beside Add (the vaccination record). */
  extraActions?: ReactNode;
}

/**
 * One kind of clinical item of one person (DESIGN §12): its list with loading, failure and empty
 * states, and — for those who may write — the add and edit dialog and a delete that asks first.
 * What the server answers ("Immunization added successfully!") is what the person is told.
 */
export function ClinicalSection<K extends ClinicalKind>({
  kind,
  personId,
  canEdit,
  heading,
  emptyText,
  renderItems,
  titleOf,
  extraActions,
}: ClinicalSectionProps<K>) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const items = useClinicalItems(personId, kind);
  const remove = useDeleteClinicalItem(personId, kind);
  const [form, setForm] = useState<{ item: ClinicalItem<K> | null } | null>(null);
  const [deleting, setDeleting] = useState<ClinicalItem<K> | null>(null);
  const [deleteFailure, setDeleteFailure] = useState<string | null>(null);
  const { one, many } = CLINICAL_LABELS[kind];

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteFailure(null);
    try {
      const { message } = await remove.mutateAsync(deleting.id);
      notify.success(message);
      // The card whose button opened the dialog is gone: keep the keyboard in this section.
      requestAnimationFrame(() => headingRef.current?.focus());
    } catch (error) {
      setDeleteFailure(serverMessage(error) ?? `The ${one.toLowerCase()} could not be deleted. Please try again.`);
    } finally {
      setDeleting(null);
    }
  };

  const actions: ItemActions<K> = canEdit
    ? {
        edit: (item) => setForm({ item }),
        remove: (item) => {
          setDeleteFailure(null);
          setDeleting(item);
        },
      }
    : {};

  const body = (
    <QueryState
      query={items}
      loading={`Loading ${many.toLowerCase()}...`}
      error={(error) => serverMessage(error) ?? `The ${many.toLowerCase()} could not be loaded.`}
      isEmpty={(list) => list.length === 0}
      empty={emptyText}
    >
      {(list) => renderItems(list, actions)}
    </QueryState>
  );

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 id={headingId} ref={headingRef} tabIndex={-1} className="text-xl font-semibold text-slate-900">
          {heading}
        </h2>
        {canEdit || extraActions ? (
          <div className="flex flex-wrap gap-2">
            {extraActions}
            {canEdit ? <Button onClick={() => setForm({ item: null })}>Add {one.toLowerCase()}</Button> : null}
          </div>
        ) : null}
      </div>
      {deleteFailure ? <AlertMessage>{deleteFailure}</AlertMessage> : null}
      {body}
      {form ? <ClinicalFormModal kind={kind} personId={personId} item={form.item} onClose={() => setForm(null)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${one.toLowerCase()}`}
        message={deleting ? `Are you sure you want to delete ${titleOf(deleting)}? This action cannot be undone.` : ''}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}
