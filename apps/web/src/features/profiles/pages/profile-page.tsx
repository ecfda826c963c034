import { Trans, useLingui } from '@lingui/react/macro';
import { PageHeader } from '../../../components/ui/page-header';
import { usePatientProfile } from '../../../lib/queries/patient-profile';
import { ProfileEditor } from '../components/profile-editor';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { ownPerson } from '../../../lib/person-choice';
import { usePeople } from '../../../lib/queries/people';
import { HealthRecordsLink } from '../../clinical/components/health-records-link';

/** /profile — the full profile editor (SPEC §2). */
export function ProfilePage() {
  const { t } = useLingui();
  const profile = usePatientProfile();
  const people = usePeople();
  const self = people.data ? ownPerson(people.data) : undefined;
  return (
    <>
      <PageHeader
        title={t`Profile`}
        subtitle={t`Your health information, kept in one place for you and your care team.`}
        actions={self ? <HealthRecordsLink personId={self.id} /> : null}
      />
      {profile.isPending ? (
        <p role="status" className="py-8 text-slate-700">
          <Trans>Loading profile...</Trans>
        </p>
      ) : profile.isError ? (
        <StatusMessage message={errorMessage(profile.error, t`Failed to load profile data`, t`Error loading profile data`)} />
      ) : (
        <ProfileEditor profile={profile.data} />
      )}
    </>
  );
}
