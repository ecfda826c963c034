import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { Medication } from '@kinchart/shared/profile';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { PageHeader } from '../../../components/ui/page-header';
import { PersonSelect } from '../../../components/ui/person-select';
import { Tabs } from '../../../components/ui/tabs';
import { canWrite, defaultPersonId, ownPerson } from '../../../lib/person-choice';
import { personLabel, usePeople } from '../../../lib/queries/people';
import { useSelectedPersonId } from '../../../lib/selected-person';
import { notify } from '../../../lib/toast';
import { useHashTarget } from '../../../lib/use-hash-target';
import { useDeleteMedication } from '../api/delete-medication';
import { useMedications } from '../api/get-medications';
import { EndMedicationDialog } from '../components/end-medication-dialog';
import { MedicationCard, medicationLabel } from '../components/medication-card';
import { MedicationFormModal } from '../components/medication-form-modal';
import { MedicationSchedule } from '../components/medication-schedule';

type TabId = 'current' | 'history';

// SPEC §8 Prescriptions screen.
const DELETE_FAILED = msg`Failed to delete medication. Please try again.`;

/** Most recently ended first; undated ones last. */
function byEndDateDescending(a: Medication, b: Medication): number {
  return (b.end_date ?? '').localeCompare(a.end_date ?? '');
}

/**
 * /prescriptions (SPEC §2): current medications and their history — one person's at a time
 * (DESIGN §11): the person chosen here (?person={id}), else the one chosen on the dashboard, else
 * yourself. Your own go over the own-profile API; anyone else's over the person's.
 */
export function PrescriptionsPage() {
  const { t } = useLingui();
  const people = usePeople();
  const dashboardChoice = useSelectedPersonId();
  const [searchParams, setSearchParams] = useSearchParams();
  const everyone = people.data ?? [];
  const shownId = defaultPersonId(everyone, searchParams.get('person') || dashboardChoice);
  const shown = shownId === null ? undefined : everyone.find((p) => p.id === shownId);
  // null: the user's own profile (also while the people list is not there).
  const personId = shown === undefined || shown === ownPerson(everyone) ? null : shown.id;
  const canEdit = shown ? canWrite(shown) : true;
  const shownName = shown ? personLabel(shown) : '';
  const medications = useMedications(personId);
  const deleteMedication = useDeleteMedication(personId);
  const [tab, setTab] = useState<TabId>('current');
  const [form, setForm] = useState<{ medication: Medication | null } | null>(null);
  const [ending, setEnding] = useState<Medication | null>(null);
  const [deleting, setDeleting] = useState<Medication | null>(null);
  const [deleteFailure, setDeleteFailure] = useState<string | null>(null);
  const tabsRef = useRef<HTMLDivElement>(null);

  // Deleting or ending a medication removes the card whose button opened the dialog, so the
  // dialog cannot hand focus back to it: keep the keyboard user in the list they were in.
  const focusListAfterRemoval = () => {
    requestAnimationFrame(() => tabsRef.current?.querySelector<HTMLElement>('[role="tabpanel"]:not([hidden])')?.focus());
  };

  // Issue 33: opened at `#medication-<id>` (a search result), show the tab holding it, once per visit.
  const { hash, key: locationKey } = useLocation();
  const openedFor = useRef<string | null>(null);
  useHashTarget();
  useEffect(() => {
    if (!hash.startsWith('#medication-') || !medications.data || openedFor.current === locationKey) return;
    const target = medications.data.find((m) => `#medication-${m.id}` === hash);
    if (!target) return;
    openedFor.current = locationKey;
    setTab(target.is_current ? 'current' : 'history');
  }, [hash, locationKey, medications.data]);

  const all = medications.data ?? [];
  const current = all.filter((m) => m.is_current);
  const history = all.filter((m) => !m.is_current).sort(byEndDateDescending);

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteFailure(null);
    try {
      await deleteMedication.mutateAsync(deleting.id);
      notify.success(t`Medication removed successfully!`);
      focusListAfterRemoval();
    } catch {
      const failed = t(DELETE_FAILED);
      setDeleteFailure(failed);
      window.alert(failed);
    } finally {
      setDeleting(null);
    }
  };

  /** One tab's list: `items` are the tab's part of the answer. */
  const list = (items: Medication[], empty: string) => (
    <QueryState
      query={medications}
      loading={t`Loading medications...`}
      error={t`Your medications could not be loaded.`}
      isEmpty={() => items.length === 0}
      empty={empty}
      className="my-4"
    >
      {() => (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {items.map((medication) => (
            // Issue 33: search results open `#medication-<id>`.
            <li key={medication.id} id={`medication-${medication.id}`}>
              <MedicationCard
                medication={medication}
                canEdit={canEdit}
                schedule={
                  medication.is_current ? (
                    <MedicationSchedule
                      personId={shown?.id ?? null}
                      medicationId={medication.id}
                      name={medicationLabel(medication)}
                      canEdit={canEdit}
                      withHistory
                    />
                  ) : null
                }
                onEdit={(m) => setForm({ medication: m })}
                onEnd={setEnding}
                onDelete={(m) => {
                  setDeleteFailure(null);
                  setDeleting(m);
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </QueryState>
  );

  return (
    <>
      <PageHeader
        title={t`Prescriptions`}
        subtitle={t`Keep track of the medications you take and the ones you have stopped.`}
        actions={canEdit ? <Button onClick={() => setForm({ medication: null })}>{t`Add Medication`}</Button> : null}
      />
      {everyone.length > 1 ? (
        <PersonSelect
          label={t`Person`}
          people={everyone}
          value={shownId ?? ''}
          onChange={(id) => {
            setTab('current');
            setSearchParams({ person: id }, { replace: true });
          }}
          containerClassName="mb-4 sm:max-w-xs"
        />
      ) : null}
      {canEdit || !shown ? null : (
        <p className="mb-4 text-sm text-slate-700">
          <Trans>View only: you can see {shownName}&apos;s medications but not change them.</Trans>
        </p>
      )}
      {deleteFailure ? (
        <p role="alert" className="mb-4 rounded-lg bg-red-50 px-3 py-2 font-medium text-red-700">
          {deleteFailure}
        </p>
      ) : null}
      <div ref={tabsRef}>
        <Tabs<TabId>
          label={t`Medications`}
          value={tab}
          onChange={setTab}
          items={[
            { id: 'current', label: t`Current Medications`, content: list(current, t`No current medications.`) },
            { id: 'history', label: t`Medication History`, content: list(history, t`No past medications.`) },
          ]}
        />
      </div>
      <MedicationFormModal
        // A fresh form for each person, should the person change while it is open.
        key={personId ?? 'own'}
        open={form !== null}
        medication={form?.medication ?? null}
        personId={personId}
        onClose={() => setForm(null)}
      />
      <EndMedicationDialog personId={personId} medication={ending} onClose={() => setEnding(null)} onEnded={focusListAfterRemoval} />
      <ConfirmDialog
        open={deleting !== null}
        title={t`Delete Medication`}
        message={t`Are you sure you want to delete this medication? This action cannot be undone.`}
        busy={deleteMedication.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
