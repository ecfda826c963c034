import { PageHeader } from '../../../components/ui/page-header';

export function EditFamilyMemberPage() {
  return <PageHeader title="Edit Family Member" />;
}
