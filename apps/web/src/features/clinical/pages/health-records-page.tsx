import type { ReactNode } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { CLINICAL_KINDS, type ClinicalKind } from '@kinchart/shared/clinical';
import type { Person } from '@kinchart/shared/people';
import { PageHeader } from '../../../components/ui/page-header';
import { PersonSelect } from '../../../components/ui/person-select';
import { SharedByBadge } from '../../../components/ui/shared-by-badge';
import { StatusMessage } from '../../../components/ui/status-message';
import { Tabs } from '../../../components/ui/tabs';
import { errorMessage } from '../../../lib/api-client';
import { canWrite, defaultPersonId, ownPerson } from '../../../lib/person-choice';
import { personLabel, usePeople } from '../../../lib/queries/people';
import { useSelectedPersonId } from '../../../lib/selected-person';
import { useHashTarget } from '../../../lib/use-hash-target';
import {
  ConditionList,
  ImmunizationList,
  ProcedureList,
  conditionTitle,
  immunizationTitle,
  procedureTitle,
} from '../components/clinical-cards';
import { AllergySection } from '../components/allergy-section';
import { ClinicalSection } from '../components/clinical-section';
import { healthRecordsPath } from '../components/health-records-link';
import { LabResultsList, labResultTitle } from '../components/lab-results-list';
import { PrintVaccinationRecordButton } from '../components/print-vaccination-record-button';

/** The clinical kinds, and the allergies after the conditions (issue 34). */
type RecordsTab = ClinicalKind | 'allergies';
const TABS: readonly RecordsTab[] = ['immunizations', 'lab-results', 'conditions', 'allergies', 'procedures'];

const TAB_LABELS: Record<RecordsTab, MessageDescriptor> = {
  immunizations: msg`Immunizations`,
  'lab-results': msg`Lab results & vitals`,
  conditions: msg`Conditions`,
  allergies: msg`Allergies`,
  procedures: msg`Procedures`,
};

const isTab = (value: string | null): value is RecordsTab => TABS.includes(value as RecordsTab);

/** Issue 33: a search result links to `#condition-<id>` (and so on); the tab holding that row opens. */
function kindOfHash(hash: string): RecordsTab | undefined {
  if (hash.startsWith('#allergy-')) return 'allergies';
  return CLINICAL_KINDS.find((kind) => hash.startsWith(`#${kind.slice(0, -1)}-`));
}

/** The five sections of one person's health records. */
function sections(person: Person, tr: (text: MessageDescriptor) => string): { id: RecordsTab; label: string; content: ReactNode }[] {
  const personId = person.id;
  const canEdit = canWrite(person);
  const content: Record<RecordsTab, ReactNode> = {
    immunizations: (
      <ClinicalSection
        kind="immunizations"
        personId={personId}
        canEdit={canEdit}
        heading={tr(msg`Immunizations`)}
        emptyText={tr(msg`No immunizations recorded yet.`)}
        titleOf={immunizationTitle}
        extraActions={<PrintVaccinationRecordButton personId={personId} />}
        renderItems={(items, actions) => <ImmunizationList items={items} actions={actions} />}
      />
    ),
    'lab-results': (
      <ClinicalSection
        kind="lab-results"
        personId={personId}
        canEdit={canEdit}
        heading={tr(msg`Lab results & vitals`)}
        emptyText={tr(msg`No lab results or vital signs recorded yet.`)}
        titleOf={labResultTitle}
        renderItems={(items, actions) => <LabResultsList items={items} actions={actions} />}
      />
    ),
    conditions: (
      <ClinicalSection
        kind="conditions"
        personId={personId}
        canEdit={canEdit}
        heading={tr(msg`Conditions`)}
        emptyText={tr(msg`No conditions recorded yet.`)}
        titleOf={conditionTitle}
        renderItems={(items, actions) => <ConditionList items={items} actions={actions} />}
      />
    ),
    allergies: <AllergySection personId={personId} canEdit={canEdit} />,
    procedures: (
      <ClinicalSection
        kind="procedures"
        personId={personId}
        canEdit={canEdit}
        heading={tr(msg`Procedures`)}
        emptyText={tr(msg`No procedures recorded yet.`)}
        titleOf={procedureTitle}
        renderItems={(items, actions) => <ProcedureList items={items} actions={actions} />}
      />
    ),
  };
  return TABS.map((tab) => ({ id: tab, label: tr(TAB_LABELS[tab]), content: content[tab] }));
}

/**
 * /health-records/{personId} (DESIGN §12): a person's immunizations, lab results and vital signs,
 * conditions, allergies and procedures, one tab each (?tab=). Anyone who can see the person reads them and
 * prints the vaccination record; editors and up add, edit and delete (DESIGN §11). Without a
 * person in the address it opens the one chosen on the dashboard, else yourself.
 */
export function HealthRecordsPage() {
  const { t } = useLingui();
  const { personId: fromPath } = useParams();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const people = usePeople();
  const dashboardChoice = useSelectedPersonId();
  const { hash } = useLocation();
  useHashTarget();
  const tabParam = searchParams.get('tab');
  const tab: RecordsTab = isTab(tabParam) ? tabParam : (kindOfHash(hash) ?? 'immunizations');
  const keepTab = tab === 'immunizations' ? '' : `?tab=${tab}`;

  const header = (
    <PageHeader title={t`Health records`} subtitle={t`Immunizations, lab results and vital signs, conditions, allergies and procedures.`} />
  );
  if (people.isPending) {
    return (
      <>
        {header}
        <p role="status" className="py-8 text-slate-700">
          <Trans>Loading health records...</Trans>
        </p>
      </>
    );
  }
  if (people.isError) {
    return (
      <>
        {header}
        <StatusMessage message={errorMessage(people.error, t`Failed to load family members`)} />
      </>
    );
  }

  const everyone = people.data;
  if (fromPath === undefined) {
    const startId = defaultPersonId(everyone, dashboardChoice);
    return startId === null ? header : <Navigate to={`${healthRecordsPath(startId)}${keepTab}`} replace />;
  }
  const shown = everyone.find((p) => p.id === fromPath);
  if (!shown) {
    // A person deleted, or a share that ended, since the link was made: say so, never show someone else.
    return (
      <>
        {header}
        <div role="alert" className="flex flex-col items-start gap-3 rounded-xl border border-slate-200 bg-white p-4 text-slate-700">
          <p>
            <Trans>This person is not among the people you can see.</Trans>
          </p>
          <Link to={healthRecordsPath(ownPerson(everyone)?.id)} className="font-semibold text-brand-700 underline">
            <Trans>Open your own health records</Trans>
          </Link>
        </div>
      </>
    );
  }

  const shownName = personLabel(shown);
  return (
    <>
      {header}
      <div className="mb-6 flex flex-col gap-3">
        {everyone.length > 1 ? (
          <PersonSelect
            label={t`Person`}
            people={everyone}
            value={shown.id}
            onChange={(id) => void navigate(`${healthRecordsPath(id)}${keepTab}`, { replace: true })}
            containerClassName="sm:max-w-xs"
          />
        ) : null}
        {shown.shared_by !== null ? (
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <SharedByBadge username={shown.shared_by} />
            {canWrite(shown) ? null : (
              <span>
                <Trans>View only: you can see {shownName}&apos;s health records but not change them.</Trans>
              </span>
            )}
          </p>
        ) : null}
      </div>
      <Tabs<RecordsTab>
        // A new person starts with closed dialogs and fresh lists.
        key={shown.id}
        label={t`Health records`}
        value={tab}
        onChange={(id) => setSearchParams(id === 'immunizations' ? {} : { tab: id }, { replace: true })}
        items={sections(shown, (text) => t(text))}
      />
    </>
  );
}
