import type { ReactNode } from 'react';
import type { ClinicalKind } from '@kinchart/shared/clinical';
import type { ClinicalItem } from '../api/clinical-paths';
import { useDeleteClinicalItem } from '../api/delete-clinical-item';
import { useClinicalItems } from '../api/get-clinical-items';
import { ClinicalFormModal } from './clinical-form-modal';
import { RecordSection, type RecordActions } from './record-section';
import { RECORD_TEXTS } from '../utils/record-texts';

/** What a list may offer on each item of a kind; absent for a viewer (DESIGN §11: viewers only read). */
export type ItemActions<K extends ClinicalKind> = RecordActions<ClinicalItem<K>>;

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

/** One kind of clinical item of one person (DESIGN §12), with the kind's form from utils/clinical-forms. */
export function ClinicalSection<K extends ClinicalKind>({ kind, personId, ...rest }: ClinicalSectionProps<K>) {
  const items = useClinicalItems(personId, kind);
  const remove = useDeleteClinicalItem(personId, kind);
  return (
    <RecordSection<ClinicalItem<K>>
      {...rest}
      texts={RECORD_TEXTS[kind]}
      items={items}
      remove={remove}
      renderForm={(item, onClose) => <ClinicalFormModal kind={kind} personId={personId} item={item} onClose={onClose} />}
    />
  );
}
