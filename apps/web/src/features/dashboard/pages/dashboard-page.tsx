import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import type { FamilyMember, FamilyMemberSummary, PatientProfile } from '@kinchart/shared/profile';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { useAppEvent } from '../../../lib/events';
import { ProfileQrImage } from '../../emergency/components/profile-qr-image';
import { RecentUploads } from '../../files/components/recent-uploads';
import { useFamilyMember } from '../../profiles/api/get-family-member';
import { familyMembersQueryKey, useFamilyMembers } from '../../../lib/queries/family-members';
import { patientProfileQueryKey, usePatientProfile } from '../../../lib/queries/patient-profile';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { ProfileInformation, type PersonView } from '../components/profile-information';
import { ProfileSwitcher } from '../components/profile-switcher';

function ownView(profile: PatientProfile): PersonView {
  return { ...profile };
}

/** A member as the detail call returns it, or only their list entry (no lists) when that call failed. */
function memberView(member: FamilyMember | FamilyMemberSummary): PersonView {
  return {
    ...member,
    relationship: member.relationship,
    is_pet: member.is_pet,
    emergency_contacts: 'emergency_contacts' in member ? member.emergency_contacts : [],
    medications: 'medications' in member ? member.medications : [],
  };
}

/** /dashboard (SPEC §2): whose profile, their Profile Information, QR image and — for My Profile — recent uploads. */
export function DashboardPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const profile = usePatientProfile();
  const members = useFamilyMembers();
  // Whose profile shows lives in the address (?member={id}), so a page that leaves for a member's
  // editor can come back to that member, and a reload or Back keeps the choice (SPEC §4 Dashboard
  // selection). Switching replaces the entry: Back leaves the dashboard rather than replaying clicks.
  const [searchParams, setSearchParams] = useSearchParams();
  const selectedId = searchParams.get('member') || null;
  const setSelectedId = useCallback(
    (memberId: string | null) => setSearchParams(memberId ? { member: memberId } : {}, { replace: true }),
    [setSearchParams],
  );

  // SPEC §4 Refresh events: another part of the page changed a family member.
  useAppEvent('familyMemberUpdated', () => {
    void queryClient.invalidateQueries({ queryKey: familyMembersQueryKey });
    void queryClient.invalidateQueries({ queryKey: patientProfileQueryKey });
  });

  // SPEC §4: fetch failures empty the lists.
  const memberList = members.isError ? [] : (members.data ?? []);
  const listEntry = selectedId === null ? undefined : memberList.find((m) => m.id === selectedId);
  // A member deleted elsewhere disappears from the list: show My Profile again.
  const activeId = selectedId !== null && (listEntry || !members.isSuccess) ? selectedId : null;
  const member = useFamilyMember(activeId ?? undefined);

  // SPEC §4 Dashboard selection: the member's details; if that fails, their list entry; else the own profile.
  let person: PersonView | undefined;
  let showingMember = false;
  if (activeId !== null && member.data) {
    person = memberView(member.data);
    showingMember = true;
  } else if (activeId !== null && listEntry) {
    person = memberView(listEntry);
    showingMember = true;
  } else if (profile.data) {
    person = ownView(profile.data);
  }
  const loading = showingMember ? member.isPending : profile.isPending;

  // SPEC §2: Finish Profile shows while the profile name is missing or still loading.
  const needsFinish = profile.isPending || !profile.data?.name;

  return (
    <>
      <PageHeader
        title="Dashboard"
        subtitle="Your health profile and your family's, at a glance."
        actions={needsFinish ? <Button onClick={() => void navigate('/edit-profile')}>Finish Profile</Button> : null}
      />
      <div className="flex flex-col gap-8">
        <div className="flex flex-col gap-3">
          <ProfileSwitcher members={memberList} selectedId={activeId} onSelect={setSelectedId} />
          {members.isError ? <StatusMessage message={errorMessage(members.error, 'Failed to load family members')} /> : null}
        </div>
        {profile.isError && !showingMember ? (
          <StatusMessage message={errorMessage(profile.error, 'Failed to load profile data', 'Error loading profile data')} />
        ) : null}
        <ProfileInformation
          person={person}
          loading={loading && !person}
          editHref={showingMember && activeId ? `/edit-family-member/${encodeURIComponent(activeId)}` : '/profile'}
          editLabel={showingMember ? 'Edit Member' : 'Edit Profile'}
          qr={<ProfileQrImage target={showingMember && activeId ? { memberId: activeId } : { self: true }} />}
        />
        {showingMember ? null : <RecentUploads />}
      </div>
    </>
  );
}
