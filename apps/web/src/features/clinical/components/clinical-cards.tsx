import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { Condition, Immunization, Procedure } from '@kinchart/shared/clinical';
import type { ClinicalItem } from '../api/clinical-paths';
import type { ItemActions } from './clinical-section';
import { ItemCard, StatusBadge } from './item-card';
import { abatementLabel, formatLabNumber, statusLabel } from '../utils/clinical-text';

// The cards of the three kinds that list item by item (lab results go by test: lab-results-list).
// Dates are shown as they were given — 2019, 2019-05 or 2019-05-14 (DESIGN §12).

const grid = 'grid gap-4 md:grid-cols-2 xl:grid-cols-3';
const when = (date: string | null) => (date ? ` (${date})` : '');

export const immunizationTitle = (i: Immunization) => `${i.vaccine}${when(i.date)}`;
export const conditionTitle = (c: Condition) => c.name;
export const procedureTitle = (p: Procedure) => `${p.name}${when(p.performed_date)}`;

/** What one card shows of an item: its title, status badge and labelled details. */
interface CardContent {
  title: string;
  badges?: ReactNode;
  details: [string, string | null][];
}

/** The cards of one kind, each with the item's notes, codings and the actions the reader may take. */
function CardList<K extends 'immunizations' | 'conditions' | 'procedures'>({
  kind,
  items,
  actions,
  content,
}: {
  /** The row ids' prefix (`condition-<id>`), which search results link to (issue 33). */
  kind: 'immunization' | 'condition' | 'procedure';
  items: ClinicalItem<K>[];
  actions: ItemActions<K>;
  content: (item: ClinicalItem<K>) => CardContent;
}) {
  return (
    <ul className={grid}>
      {items.map((item) => (
        <li key={item.id} id={`${kind}-${item.id}`}>
          <ItemCard
            {...content(item)}
            notes={item.notes}
            codings={item.codings}
            onEdit={actions.edit && (() => actions.edit?.(item))}
            onDelete={actions.remove && (() => actions.remove?.(item))}
          />
        </li>
      ))}
    </ul>
  );
}

export function ImmunizationList({ items, actions }: { items: Immunization[]; actions: ItemActions<'immunizations'> }) {
  const { t } = useLingui();
  return (
    <CardList
      kind="immunization"
      items={items}
      actions={actions}
      content={(item) => ({
        title: item.vaccine,
        details: [
          [t`Date`, item.date],
          [
            t({ message: 'Dose', comment: 'Dose number of a vaccination' }),
            item.dose_number === null ? null : formatLabNumber(item.dose_number),
          ],
          [t({ message: 'Lot', comment: 'Lot number of a vaccine' }), item.lot_number],
          [t({ message: 'Site', comment: 'Where on the body a vaccine was given' }), item.site],
          [t({ message: 'Performer', comment: 'Who gave a vaccine or did a procedure' }), item.performer],
        ],
      })}
    />
  );
}

export function ConditionList({ items, actions }: { items: Condition[]; actions: ItemActions<'conditions'> }) {
  const { t } = useLingui();
  return (
    <CardList
      kind="condition"
      items={items}
      actions={actions}
      content={(item) => ({
        title: item.name,
        badges: <StatusBadge>{statusLabel(item.status)}</StatusBadge>,
        details: [
          [t({ message: 'Onset', comment: 'When a condition began' }), item.onset_date],
          [abatementLabel(item.status), item.abatement_date],
        ],
      })}
    />
  );
}

export function ProcedureList({ items, actions }: { items: Procedure[]; actions: ItemActions<'procedures'> }) {
  const { t } = useLingui();
  return (
    <CardList
      kind="procedure"
      items={items}
      actions={actions}
      content={(item) => ({
        title: item.name,
        badges: <StatusBadge>{statusLabel(item.status)}</StatusBadge>,
        details: [
          [t({ message: 'Performed', comment: 'When a procedure was done' }), item.performed_date],
          [t({ message: 'Performer', comment: 'Who gave a vaccine or did a procedure' }), item.performer],
        ],
      })}
    />
  );
}
