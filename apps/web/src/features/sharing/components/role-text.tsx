import { useLingui } from '@lingui/react/macro';
import { SHARE_ROLES, type PersonRole, type ShareRole } from '@kinchart/shared/people';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '../utils/role-words';

/**
 * What a role allows, as the list a person reads: each role adds to the one before it, so an
 * editor's list holds the viewer's line and then the editor's ("Can also …").
 */
export function RoleAllowances({ role, className = '' }: { role: ShareRole; className?: string }) {
  const { t } = useLingui();
  return (
    <ul className={`list-disc space-y-1 ps-5 text-sm text-slate-700 ${className}`}>
      {SHARE_ROLES.slice(0, SHARE_ROLES.indexOf(role) + 1).map((r) => (
        <li key={r}>{t(ROLE_DESCRIPTIONS[r])}</li>
      ))}
    </ul>
  );
}

const badgeBase = 'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold';

export function RoleBadge({ role }: { role: PersonRole }) {
  const { t } = useLingui();
  return <span className={`${badgeBase} bg-brand-50 text-brand-900 ring-1 ring-brand-200`}>{t(ROLE_LABELS[role])}</span>;
}

export function ShareStatusBadge({ status }: { status: 'pending' | 'active' }) {
  const { t } = useLingui();
  return status === 'active' ? (
    <span className={`${badgeBase} bg-green-100 text-green-800`}>{t({ message: 'Active', context: 'share' })}</span>
  ) : (
    <span className={`${badgeBase} bg-amber-100 text-amber-900`}>{t({ message: 'Pending', context: 'share' })}</span>
  );
}
