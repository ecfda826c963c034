import { PageHeader } from '../../../components/ui/page-header';

export function ViewRecordsPage() {
  return <PageHeader title="View Records" />;
}
