import { PageHeader } from '../../../components/ui/page-header';

export function AppointmentsPage() {
  return <PageHeader title="Appointments" />;
}
