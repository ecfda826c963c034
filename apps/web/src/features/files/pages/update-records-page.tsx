import { PageHeader } from '../../../components/ui/page-header';

export function UpdateRecordsPage() {
  return <PageHeader title="Upload Records" />;
}
