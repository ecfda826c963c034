import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { roleAllows, type Person } from '@kinchart/shared/people';
import { QueryState } from '../../../components/query-state';
import { Button, buttonClassName } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { PetBadge } from '../../../components/ui/pet-marker';
import { SharedByBadge } from '../../../components/ui/shared-by-badge';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { personLabel, usePeople } from '../../../lib/queries/people';
import { useLeaveShare } from '../api/leave-share';
import { roleAccessLabel } from '../utils/role-words';
import type { SharePerson } from '../utils/share-person';
import { RoleAllowances } from './role-text';
import { ShareAccessDialog } from './share-access-dialog';
import { ReminderSettingsDialog, type ReminderTarget } from '../../reminders/components/reminder-settings-dialog';

type SharedPerson = Person & { shared_by: string };

const isShared = (person: Person): person is SharedPerson => person.shared_by !== null;

/** A shared person's name; someone's own profile without a name is "{owner}'s profile". */
function sharedLabel(person: SharedPerson): string {
  const owner = person.shared_by;
  return (
    person.name ??
    (person.is_self
      ? t({ message: `${owner}'s profile`, comment: 'The own profile of another account, which has no name' })
      : personLabel(person))
  );
}

/**
 * Settings → Shared with me (DESIGN §11): the people other accounts share with this one, whose
 * they are and what this account may do; Leave ends the share. A manager may share on.
 */
export function SharedWithMeSection() {
  const { t } = useLingui();
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const people = usePeople();
  const leave = useLeaveShare();
  const [leaving, setLeaving] = useState<SharedPerson | null>(null);
  const [sharing, setSharing] = useState<SharePerson | null>(null);
  const [reminders, setReminders] = useState<ReminderTarget | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const confirmLeave = async () => {
    if (!leaving) return;
    setStatus(null);
    const name = sharedLabel(leaving);
    try {
      if (!leaving.share_id) throw new Error('No share to leave');
      await leave.mutateAsync({ personId: leaving.id, shareId: leaving.share_id });
      setStatus(t`You left ${name} successfully.`);
    } catch (error) {
      setStatus(errorMessage(error, t`Failed to leave the share`, t`Error leaving the share`));
    }
    setLeaving(null);
    headingRef.current?.focus();
  };

  const body = (
    <QueryState
      query={people}
      loading={t`Loading...`}
      error={t`Failed to load the people shared with you`}
      isEmpty={(everyone) => !everyone.some(isShared)}
      empty={
        <p className="rounded-xl border border-dashed border-slate-300 px-4 py-6 text-center text-slate-700">
          <Trans>Nobody has shared anyone with you yet. When someone does, open their invitation link to accept it.</Trans>
        </p>
      }
    >
      {(everyone) => (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-labelledby={headingId}>
          {everyone.filter(isShared).map((person) => (
            <SharedPersonCard
              key={person.id}
              person={person}
              onLeave={() => setLeaving(person)}
              onShare={() => setSharing({ id: person.id, label: sharedLabel(person) })}
              onReminders={() => setReminders({ id: person.id, name: sharedLabel(person), self: false })}
            />
          ))}
        </ul>
      )}
    </QueryState>
  );

  const leavingName = leaving ? sharedLabel(leaving) : '';
  const leavingOwner = leaving?.shared_by ?? '';
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div>
        <h2 ref={headingRef} id={headingId} tabIndex={-1} className="text-xl font-semibold text-slate-900 focus:outline-none">
          <Trans>Shared with me</Trans>
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          <Trans>People whose charts other accounts share with you.</Trans>
        </p>
      </div>
      <StatusMessage message={status} />
      {body}
      <ConfirmDialog
        open={leaving !== null}
        title={t`Leave ${leavingName}?`}
        message={leaving ? t`You will no longer see ${leavingName}. ${leavingOwner} can invite you again.` : ''}
        confirmLabel={t({ message: 'Leave', comment: 'Button that ends a share someone gave you' })}
        busyLabel={t`Leaving...`}
        busy={leave.isPending}
        onConfirm={() => void confirmLeave()}
        onCancel={() => setLeaving(null)}
      />
      <ShareAccessDialog person={sharing} onClose={() => setSharing(null)} />
      <ReminderSettingsDialog person={reminders} onClose={() => setReminders(null)} />
    </section>
  );
}

function SharedPersonCard({
  person,
  onLeave,
  onShare,
  onReminders,
}: {
  person: SharedPerson;
  onLeave: () => void;
  onShare: () => void;
  onReminders: () => void;
}) {
  const { t } = useLingui();
  const name = sharedLabel(person);
  const role = person.role === 'owner' ? null : person.role;
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-col items-start gap-1">
        <span className="text-lg font-semibold break-words text-slate-900">{name}</span>
        <span className="flex flex-wrap gap-2">
          <SharedByBadge username={person.shared_by} />
          {person.is_pet ? <PetBadge /> : null}
        </span>
      </div>
      {role ? (
        <div>
          <p className="text-sm font-medium text-slate-800">{roleAccessLabel(role)}</p>
          <RoleAllowances role={role} className="mt-1" />
        </div>
      ) : null}
      <div className="mt-auto flex flex-wrap gap-2">
        <Link
          to={`/dashboard?member=${encodeURIComponent(person.id)}`}
          className={buttonClassName('secondary', 'sm')}
          aria-label={t({ message: `Open ${name}`, comment: 'Link to a shared person' })}
        >
          {t({ message: 'Open', comment: 'Link to a shared person' })}
        </Link>
        {roleAllows(person.role, 'manager') ? (
          <Button variant="secondary" size="sm" onClick={onShare} aria-label={t`Share access to ${name}`}>
            {t`Share access`}
          </Button>
        ) : null}
        <Button variant="secondary" size="sm" onClick={onReminders} aria-label={t`Reminders for ${name}`}>
          {t`Reminders`}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={onLeave}
          aria-label={t({ message: `Leave ${name}`, comment: 'Button that ends a share someone gave you' })}
          className="text-red-700"
        >
          {t({ message: 'Leave', comment: 'Button that ends a share someone gave you' })}
        </Button>
      </div>
    </li>
  );
}
