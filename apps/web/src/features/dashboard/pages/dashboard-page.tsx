import { useCallback, useEffect, useMemo } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { type Person, type PersonDetail, type PersonRole } from '@kinchart/shared/people';
import type { FamilyMember, PatientProfile } from '@kinchart/shared/profile';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { SharedByBadge } from '../../../components/ui/shared-by-badge';
import { useAppEvent } from '../../../lib/events';
import { canWrite, ownPerson } from '../../../lib/person-choice';
import { UpcomingAppointments } from '../../appointments/components/upcoming-appointments';
import { ProfileQrImage } from '../../emergency/components/profile-qr-image';
import { HealthRecordsLink } from '../../clinical/components/health-records-link';
import { RecentUploads } from '../../files/components/recent-uploads';
import { TodayDoses } from '../../medications/components/today-doses';
import { useFamilyMember } from '../../profiles/api/get-family-member';
import { familyMembersQueryKey } from '../../../lib/queries/family-members';
import { patientProfileQueryKey, usePatientProfile } from '../../../lib/queries/patient-profile';
import { peopleQueryKey, usePeople } from '../../../lib/queries/people';
import { setSelectedPersonId, useSelectedPersonId } from '../../../lib/selected-person';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { usePerson } from '../api/get-person';
import { ProfileInformation, type PersonView } from '../components/profile-information';
import { ProfileSwitcher } from '../components/profile-switcher';

function ownView(profile: PatientProfile): PersonView {
  return { ...profile };
}

/** A person as their detail call returns them. */
function memberView(member: FamilyMember | PersonDetail): PersonView {
  return { ...member };
}

/** Only the people list's entry, when the detail call failed: no details, no lists. */
function entryView(person: Person): PersonView {
  return {
    name: person.name,
    relationship: person.relationship,
    is_pet: person.is_pet,
    date_of_birth: null,
    phone_number: null,
    address: null,
    blood_type: null,
    has_allergies: false,
    allergy_details: null,
    has_bleeding_disorders: false,
    bleeding_disorder_details: null,
    emergency_contacts: [],
    medications: [],
  };
}

/** "Shared by {username}" and what the user may do with that person. */
/** DESIGN §11 roles as people read them (the stored value stays English). */
const ROLE_LABELS: Record<PersonRole, MessageDescriptor> = {
  owner: msg({ message: 'Owner', context: 'role' }),
  manager: msg({ message: 'Manager', context: 'role' }),
  editor: msg({ message: 'Editor', context: 'role' }),
  viewer: msg({ message: 'Viewer', context: 'role' }),
};

function SharingNote({ sharedBy, role }: { sharedBy: string; role: PersonRole }) {
  const { t } = useLingui();
  const access = ROLE_LABELS[role] ? t(ROLE_LABELS[role]) : role;
  return (
    <>
      <SharedByBadge username={sharedBy} />
      <span className="text-sm text-slate-700">
        <Trans>Your access: {access}</Trans>
      </span>
    </>
  );
}

/**
 * /dashboard (SPEC §2): whose profile, their Profile Information and QR image, their recent
 * uploads and upcoming appointments. The switcher lists yourself, your family and the people
 * shared with you (DESIGN §11).
 */
export function DashboardPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const profile = usePatientProfile();
  const people = usePeople();
  // Whose profile shows is kept in lib/selected-person (the "For" choices elsewhere start from it)
  // and mirrored in the address (?member={id}), so a page that leaves for a member's editor can
  // come back to that member and Back keeps the choice (SPEC §4 Dashboard selection). The address
  // wins when it names someone. Switching replaces the entry: Back leaves the dashboard rather
  // than replaying clicks.
  const [searchParams, setSearchParams] = useSearchParams();
  const fromAddress = searchParams.get('member') || null;
  const stored = useSelectedPersonId();
  const selectedId = fromAddress ?? stored;
  const setSelectedId = useCallback(
    (personId: string | null) => {
      setSelectedPersonId(personId);
      setSearchParams(personId ? { member: personId } : {}, { replace: true });
    },
    [setSearchParams],
  );
  useEffect(() => {
    if (fromAddress !== null) setSelectedPersonId(fromAddress);
  }, [fromAddress]);

  // SPEC §4 Refresh events: another part of the page changed a family member.
  useAppEvent('familyMemberUpdated', () => {
    void queryClient.invalidateQueries({ queryKey: peopleQueryKey });
    void queryClient.invalidateQueries({ queryKey: familyMembersQueryKey });
    void queryClient.invalidateQueries({ queryKey: patientProfileQueryKey });
  });

  // SPEC §4: fetch failures empty the lists.
  const everyone = people.isError ? undefined : people.data;
  const me = everyone ? ownPerson(everyone) : undefined;
  const others = useMemo(() => (everyone ?? []).filter((p) => p !== me), [everyone, me]);
  const listEntry = selectedId === null ? undefined : others.find((p) => p.id === selectedId);
  // Someone deleted or unshared elsewhere disappears from the list: show My Profile again.
  const activeId = selectedId !== null && (listEntry || !people.isSuccess) ? selectedId : null;
  useEffect(() => {
    if (people.isSuccess && stored !== null && !others.some((p) => p.id === stored)) setSelectedPersonId(null);
  }, [people.isSuccess, stored, others]);

  const shared = listEntry !== undefined && listEntry.shared_by !== null;
  // SPEC §7: your own family member through the family routes; a shared person through the people
  // route. Which one is known once the people list has answered (a failed list: the family route).
  const detailId = activeId !== null && !people.isPending ? activeId : undefined;
  const member = useFamilyMember(shared ? undefined : detailId);
  const sharedPerson = usePerson(shared ? detailId : undefined);
  const detail = shared ? sharedPerson : member;

  // SPEC §4 Dashboard selection: the person's details; if that fails, their list entry; else the own
  // profile. While they are on their way nothing is shown in their place (not your own profile).
  let person: PersonView | undefined;
  let showingOther = false;
  if (activeId !== null && detail.data) {
    person = memberView(detail.data);
    showingOther = true;
  } else if (activeId !== null && listEntry) {
    person = entryView(listEntry);
    showingOther = true;
  } else if (activeId !== null && !detail.isError) {
    showingOther = true;
  } else if (profile.data) {
    person = ownView(profile.data);
  }
  const loading = showingOther ? detail.isPending : profile.isPending;

  // Viewers read a shared person's chart but do not edit it; managers also run the emergency code.
  // Until the list says who the person is to the user, neither control shows (unless the list
  // failed: then they are one of the user's own, as before people could be shared).
  const role: PersonRole | undefined = listEntry?.role ?? (people.isError ? 'owner' : undefined);
  const editable = !showingOther || (role !== undefined && canWrite({ role }));
  const showQr = !showingOther || role === 'owner' || role === 'manager';
  // Recent uploads and upcoming appointments follow the selected person; everyone's only when the
  // people list could not say who "you" are.
  const blocksFor = showingOther && activeId !== null ? activeId : me?.id;

  // SPEC §2: Finish Profile shows while the profile name is missing or still loading.
  const needsFinish = profile.isPending || !profile.data?.name;

  return (
    <>
      <PageHeader
        title={t`Dashboard`}
        subtitle={t`Your health profile and your family's, at a glance.`}
        actions={needsFinish ? <Button onClick={() => void navigate('/edit-profile')}>{t`Finish Profile`}</Button> : null}
      />
      <div className="flex flex-col gap-8">
        <div className="flex flex-col gap-3">
          <ProfileSwitcher people={others} selectedId={activeId} onSelect={setSelectedId} />
          {people.isError ? <StatusMessage message={errorMessage(people.error, t`Failed to load family members`)} /> : null}
        </div>
        {profile.isError && !showingOther ? (
          <StatusMessage message={errorMessage(profile.error, t`Failed to load profile data`, t`Error loading profile data`)} />
        ) : null}
        <ProfileInformation
          person={person}
          loading={loading && !person}
          editHref={!editable ? null : showingOther && activeId ? `/edit-family-member/${encodeURIComponent(activeId)}` : '/profile'}
          editLabel={showingOther ? t`Edit Member` : t`Edit Profile`}
          sharing={shared && listEntry?.shared_by ? <SharingNote sharedBy={listEntry.shared_by} role={listEntry.role} /> : null}
          links={blocksFor ? <HealthRecordsLink personId={blocksFor} /> : null}
          qr={showQr ? <ProfileQrImage target={showingOther && activeId ? { memberId: activeId } : { self: true }} /> : null}
        />
        {people.isPending ? null : (
          <>
            {everyone ? <TodayDoses people={everyone} /> : null}
            <RecentUploads key={`files-${blocksFor ?? 'all'}`} personId={blocksFor} />
            <UpcomingAppointments key={`appointments-${blocksFor ?? 'all'}`} personId={blocksFor} />
          </>
        )}
      </div>
    </>
  );
}
