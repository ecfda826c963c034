import { PageHeader } from '../../../components/ui/page-header';

export function EditProfilePage() {
  return <PageHeader title="Complete Your Profile" />;
}
