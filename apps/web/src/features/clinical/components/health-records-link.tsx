import { Link } from 'react-router';
import { Trans } from '@lingui/react/macro';
import { buttonClassName } from '../../../components/ui/button';

/** /health-records/{personId}, or /health-records for the person the screen picks (yourself, or the dashboard's choice). */
export function healthRecordsPath(personId?: string | null): string {
  return personId ? `/health-records/${encodeURIComponent(personId)}` : '/health-records';
}

/** The way from a person's page to their immunizations, lab results, conditions and procedures (DESIGN §12). */
export function HealthRecordsLink({ personId, className = '' }: { personId?: string | null; className?: string }) {
  return (
    <Link to={healthRecordsPath(personId)} className={buttonClassName('secondary', 'sm', className)}>
      <Trans>Health records</Trans>
    </Link>
  );
}
