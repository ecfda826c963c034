import { useLingui } from '@lingui/react/macro';
import { useLocation, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { HealthRecordsLink } from '../../clinical/components/health-records-link';
import { FamilyMemberEditor } from '../components/family-member-editor';

/** /edit-family-member/{id} — the editor without a modal: 'Update Family Member' returns to /dashboard (SPEC §2). */
export function EditFamilyMemberPage() {
  const { t } = useLingui();
  const { id } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <>
      <PageHeader title={t`Edit Family Member`} actions={id ? <HealthRecordsLink personId={id} /> : null} />
      <FamilyMemberEditor
        variant="page"
        memberId={id}
        // Back to the dashboard with this member selected (its ?member= parameter), not My Profile.
        onSaved={() => void navigate(id ? `/dashboard?${new URLSearchParams({ member: id }).toString()}` : '/dashboard')}
        onCancel={() => void (location.key === 'default' ? navigate('/dashboard') : navigate(-1))}
      />
    </>
  );
}
