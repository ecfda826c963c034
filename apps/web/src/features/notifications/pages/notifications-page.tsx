import { PageHeader } from '../../../components/ui/page-header';

export function NotificationsPage() {
  return <PageHeader title="Notifications" />;
}
