import type { Allergy } from '@kinchart/shared/allergies';
import { Trans, useLingui } from '@lingui/react/macro';
import { useDeleteAllergy } from '../api/delete-allergy';
import { useAllergies } from '../api/get-allergies';
import { CRITICALITY_LABELS, SEVERITY_LABELS } from '../utils/allergy-form';
import { AllergyFormModal } from './allergy-form-modal';
import { ItemCard } from './item-card';
import { RecordSection, type RecordActions } from './record-section';
import { RECORD_TEXTS } from '../utils/record-texts';
import { listItems } from '../utils/clinical-text';

/** "Penicillin" — the entry's name in the delete question and on its card. */
const allergyTitle = (a: Allergy) => a.substance;

/** The "High criticality" marker: a word, framed, so it does not rest on colour alone. */
function HighCriticality() {
  return (
    <span className="rounded-full border border-red-800 bg-red-50 px-2.5 py-0.5 text-xs font-bold text-red-800">
      <Trans>High criticality</Trans>
    </span>
  );
}

function AllergyList({ items, actions }: { items: Allergy[]; actions: RecordActions<Allergy> }) {
  const { t } = useLingui();
  return (
    <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
      {items.map((item) => (
        <li key={item.id} id={`allergy-${item.id}`}>
          <ItemCard
            title={allergyTitle(item)}
            badges={item.criticality === 'high' ? <HighCriticality /> : undefined}
            details={[
              [t`Reactions`, listItems(item.reactions)],
              [t`Severity`, item.severity ? t(SEVERITY_LABELS[item.severity]) : null],
              [t`Criticality`, item.criticality ? t(CRITICALITY_LABELS[item.criticality]) : null],
            ]}
            notes={null}
            codings={item.codings}
            onEdit={actions.edit && (() => actions.edit?.(item))}
            onDelete={actions.remove && (() => actions.remove?.(item))}
          />
        </li>
      ))}
    </ul>
  );
}

/**
 * A person's allergies as entries (issue 34, docs/decisions/0053): substance, reactions, severity
 * and criticality, each in its own card; editors and up add, edit and delete, viewers read.
 */
export function AllergySection({ personId, canEdit }: { personId: string; canEdit: boolean }) {
  const { t } = useLingui();
  const items = useAllergies(personId);
  const remove = useDeleteAllergy(personId);
  return (
    <RecordSection<Allergy>
      texts={RECORD_TEXTS.allergies}
      items={items}
      remove={remove}
      canEdit={canEdit}
      heading={t`Allergies`}
      intro={t`The allergy details of the profile and the emergency page are written from these entries.`}
      emptyText={t`No allergies recorded yet.`}
      titleOf={allergyTitle}
      renderItems={(list, actions) => <AllergyList items={list} actions={actions} />}
      renderForm={(allergy, onClose) => <AllergyFormModal personId={personId} allergy={allergy} onClose={onClose} />}
    />
  );
}
