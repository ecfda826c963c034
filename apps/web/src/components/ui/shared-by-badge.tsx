import { Trans } from '@lingui/react/macro';

/** DESIGN §11: a person shared with you carries "Shared by {username}" wherever people are listed. */
export function SharedByBadge({ username, className = '' }: { username: string; className?: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full border border-sky-300 bg-sky-50 px-2 py-0.5 text-xs font-semibold text-sky-900 ${className}`}
    >
      <Trans>Shared by {username}</Trans>
    </span>
  );
}
