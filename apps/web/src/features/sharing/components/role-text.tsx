import { ROLE_DESCRIPTIONS, ROLE_LABELS, SHARE_ROLES, type ShareRole } from '@kinchart/shared/people';

/**
 * What a role allows, as the list a person reads: each role adds to the one before it, so an
 * editor's list holds the viewer's line and then the editor's ("Can also …").
 */
export function roleAllowances(role: ShareRole): string[] {
  return SHARE_ROLES.slice(0, SHARE_ROLES.indexOf(role) + 1).map((r) => ROLE_DESCRIPTIONS[r]);
}

export function RoleAllowances({ role, className = '' }: { role: ShareRole; className?: string }) {
  return (
    <ul className={`list-disc space-y-1 ps-5 text-sm text-slate-700 ${className}`}>
      {roleAllowances(role).map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

const badgeBase = 'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold';

export function RoleBadge({ role }: { role: ShareRole }) {
  return <span className={`${badgeBase} bg-brand-50 text-brand-900 ring-1 ring-brand-200`}>{ROLE_LABELS[role]}</span>;
}

export function ShareStatusBadge({ status }: { status: 'pending' | 'active' }) {
  return status === 'active' ? (
    <span className={`${badgeBase} bg-green-100 text-green-800`}>Active</span>
  ) : (
    <span className={`${badgeBase} bg-amber-100 text-amber-900`}>Pending</span>
  );
}
