import { PageHeader } from '../../../components/ui/page-header';

export function PrescriptionsPage() {
  return <PageHeader title="Prescriptions" />;
}
