import { t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useId, useRef, useState } from 'react';
import { SHARE_ROLES, type Share, type ShareRole } from '@kinchart/shared/people';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { SelectField } from '../../../components/ui/form-controls';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useShares } from '../api/get-shares';
import { useRevokeShare } from '../api/revoke-share';
import { useUpdateShare } from '../api/update-share';
import { formatWhen } from '../utils/describe-access';
import { ROLE_LABELS, roleLabel } from '../utils/role-words';
import { RoleBadge, ShareStatusBadge } from './role-text';
import type { SharePerson } from '../utils/share-person';

/** Who a share is for, as the list names it: the account once accepted, else the email label. */
export function shareHolder(share: Share): string {
  return (
    share.holder_username ??
    share.email ??
    t({ message: 'Invitation', comment: 'A pending invitation without an email address, in the list of who has access' })
  );
}

/** What ends with a manager's share (docs/decisions/0032), as the dialogs say it. */
function handedOnWords(who: string, person: SharePerson): string {
  const name = person.label;
  return t`Anyone ${who} shared ${name} with loses access too.`;
}

/** What the confirmation of Revoke says will happen. */
function revokeWords(share: Share, who: string, person: SharePerson): string {
  const email = share.email;
  if (share.status === 'pending') {
    return email ? t`The invitation link for ${email} will stop working.` : t`The invitation link will stop working.`;
  }
  const name = person.label;
  return share.role === 'manager'
    ? t`${who} will no longer see ${name}. Anyone ${who} shared ${name} with loses access too. You can invite them again later.`
    : t`${who} will no longer see ${name}. You can invite them again later.`;
}

/** "Who has access" in the share dialog: pending invitations and active shares, each with its role to change and Revoke. */
export function ShareList({ person }: { person: SharePerson }) {
  const { t } = useLingui();
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shares = useShares(person.id);
  const revoke = useRevokeShare(person.id);
  const update = useUpdateShare(person.id);
  const [revoking, setRevoking] = useState<Share | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  /** Answers whether the role changed (the row then shows it as saved). */
  const changeRole = async (share: Share, role: ShareRole): Promise<boolean> => {
    setStatus(null);
    try {
      const saved = await update.mutateAsync({ shareId: share.share_id, role });
      const who = shareHolder(saved);
      const newRole = roleLabel(saved.role);
      setStatus(t`Role changed successfully: ${who} is now ${newRole}.`);
      return true;
    } catch (error) {
      setStatus(errorMessage(error, t`Failed to change the role`, t`Error changing the role`));
      return false;
    }
  };

  const confirmRevoke = async () => {
    if (!revoking) return;
    setStatus(null);
    try {
      await revoke.mutateAsync(revoking.share_id);
      setStatus(revoking.status === 'pending' ? t`Invitation revoked successfully.` : t`Access revoked successfully.`);
    } catch (error) {
      setStatus(errorMessage(error, t`Failed to revoke access`, t`Error revoking access`));
    }
    setRevoking(null);
    // The row and its Revoke button are gone: keep focus in the dialog, where the result is.
    headingRef.current?.focus();
  };

  const body = (
    <QueryState
      query={shares}
      loading={t`Loading...`}
      error={(error) => errorMessage(error, t`Failed to load who has access`, t`Error loading who has access`)}
      isEmpty={(list) => list.length === 0}
      empty={t`Nobody else has access yet.`}
      compact
    >
      {(list) => (
        <ul className="flex flex-col gap-2" aria-labelledby={headingId}>
          {list.map((share) => (
            <ShareRow
              key={share.share_id}
              share={share}
              person={person}
              saving={update.isPending && update.variables?.shareId === share.share_id}
              onChangeRole={(role) => changeRole(share, role)}
              onRevoke={() => setRevoking(share)}
            />
          ))}
        </ul>
      )}
    </QueryState>
  );

  const who = revoking ? shareHolder(revoking) : '';
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 ref={headingRef} id={headingId} tabIndex={-1} className="text-base font-semibold text-slate-900 focus:outline-none">
        {t`Who has access`}
      </h3>
      <StatusMessage message={status} />
      {body}
      <ConfirmDialog
        open={revoking !== null}
        title={revoking?.status === 'pending' ? t`Revoke invitation` : t`Revoke access`}
        message={revoking ? revokeWords(revoking, who, person) : ''}
        confirmLabel={t({ message: 'Revoke', comment: 'Button that ends a share or an invitation' })}
        busyLabel={t`Revoking...`}
        busy={revoke.isPending}
        onConfirm={() => void confirmRevoke()}
        onCancel={() => setRevoking(null)}
      />
    </section>
  );
}

interface ShareRowProps {
  share: Share;
  person: SharePerson;
  saving: boolean;
  onChangeRole: (role: ShareRole) => Promise<boolean>;
  onRevoke: () => void;
}

function ShareRow({ share, person, saving, onChangeRole, onRevoke }: ShareRowProps) {
  const { t } = useLingui();
  const who = shareHolder(share);
  const hintId = useId();
  const [role, setRole] = useState<ShareRole>(share.role);
  const changed = role !== share.role;
  const until = share.expires_at ? formatDate(share.expires_at) : null;
  const created = formatDate(share.created_at);
  const linkExpires = formatWhen(share.invite_expires_at);
  const accepted = share.accepted_at ? formatDate(share.accepted_at) : null;
  // A manager made viewer or editor no longer hands anything on (docs/decisions/0032).
  const warn = changed && share.role === 'manager';
  const save = async () => {
    // Shown as it was when refused; the list then holds what the server has.
    if (!(await onChangeRole(role))) setRole(share.role);
  };
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-slate-200 p-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="font-semibold break-words text-slate-900">{who}</p>
          {share.holder_username && share.email ? <p className="text-sm break-words text-slate-700">{share.email}</p> : null}
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <RoleBadge role={share.role} />
            <ShareStatusBadge status={share.status} />
            <span>{until ? t({ message: `Until ${until}`, comment: 'When a share ends' }) : t`No end date`}</span>
          </p>
          {share.status === 'pending' ? (
            <p className="text-sm text-slate-700">{t`Created ${created}; the link expires ${linkExpires}.`}</p>
          ) : accepted ? (
            <p className="text-sm text-slate-700">{t({ message: `Accepted ${accepted}`, comment: 'When an invitation was accepted' })}</p>
          ) : null}
        </div>
        <Button
          variant="secondary"
          size="sm"
          className="shrink-0 self-start sm:self-center"
          aria-label={t`Revoke ${who}`}
          onClick={onRevoke}
        >
          {t({ message: 'Revoke', comment: 'Button that ends a share or an invitation' })}
        </Button>
      </div>
      <div className="flex flex-col gap-1">
        <div className="flex flex-wrap items-end gap-2">
          <SelectField
            label={t({ message: 'Role', context: 'sharing role' })}
            // The visible label, and whose role it is: one of several in the list.
            aria-label={t`Role for ${who}`}
            value={role}
            disabled={saving}
            onChange={(event) => setRole(event.currentTarget.value as ShareRole)}
            containerClassName="min-w-40"
            aria-describedby={warn ? hintId : undefined}
          >
            {SHARE_ROLES.map((r) => (
              <option key={r} value={r}>
                {t(ROLE_LABELS[r])}
              </option>
            ))}
          </SelectField>
          {changed ? (
            <Button size="sm" onClick={() => void save()} disabled={saving} aria-label={t`Save role for ${who}`}>
              {saving ? t`Saving...` : t`Save role`}
            </Button>
          ) : null}
        </div>
        {warn ? (
          <p id={hintId} className="text-sm font-medium text-amber-900">
            {handedOnWords(who, person)}
          </p>
        ) : null}
      </div>
    </li>
  );
}
