import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { roleAllows, ROLE_LABELS, type Person } from '@kinchart/shared/people';
import { QueryState } from '../../../components/query-state';
import { Button, buttonClassName } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { PetBadge } from '../../../components/ui/pet-marker';
import { SharedByBadge } from '../../../components/ui/shared-by-badge';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { personLabel, usePeople } from '../../../lib/queries/people';
import { useLeaveShare } from '../api/leave-share';
import type { SharePerson } from '../utils/share-person';
import { RoleAllowances } from './role-text';
import { ShareAccessDialog } from './share-access-dialog';
import { ReminderSettingsDialog, type ReminderTarget } from '../../reminders/components/reminder-settings-dialog';

type SharedPerson = Person & { shared_by: string };

const isShared = (person: Person): person is SharedPerson => person.shared_by !== null;

/** A shared person's name; someone's own profile without a name is "{owner}'s profile". */
function sharedLabel(person: SharedPerson): string {
  return person.name ?? (person.is_self ? `${person.shared_by}'s profile` : personLabel(person));
}

/**
 * Settings → Shared with me (DESIGN §11): the people other accounts share with this one, whose
 * they are and what this account may do; Leave ends the share. A manager may share on.
 */
export function SharedWithMeSection() {
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
      setStatus(`You left ${name} successfully.`);
    } catch (error) {
      setStatus(errorMessage(error, 'Failed to leave the share', 'Error leaving the share'));
    }
    setLeaving(null);
    headingRef.current?.focus();
  };

  const body = (
    <QueryState
      query={people}
      loading="Loading..."
      error="Failed to load the people shared with you"
      isEmpty={(everyone) => !everyone.some(isShared)}
      empty={
        <p className="rounded-xl border border-dashed border-slate-300 px-4 py-6 text-center text-slate-700">
          Nobody has shared anyone with you yet. When someone does, open their invitation link to accept it.
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
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div>
        <h2 ref={headingRef} id={headingId} tabIndex={-1} className="text-xl font-semibold text-slate-900 focus:outline-none">
          Shared with me
        </h2>
        <p className="mt-1 text-sm text-slate-700">People whose charts other accounts share with you.</p>
      </div>
      <StatusMessage message={status} />
      {body}
      <ConfirmDialog
        open={leaving !== null}
        title={`Leave ${leavingName}?`}
        message={leaving ? `You will no longer see ${leavingName}. ${leaving.shared_by} can invite you again.` : ''}
        confirmLabel="Leave"
        busyLabel="Leaving..."
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
          <p className="text-sm font-medium text-slate-800">{ROLE_LABELS[role]} access</p>
          <RoleAllowances role={role} className="mt-1" />
        </div>
      ) : null}
      <div className="mt-auto flex flex-wrap gap-2">
        <Link
          to={`/dashboard?member=${encodeURIComponent(person.id)}`}
          className={buttonClassName('secondary', 'sm')}
          aria-label={`Open ${name}`}
        >
          Open
        </Link>
        {roleAllows(person.role, 'manager') ? (
          <Button variant="secondary" size="sm" onClick={onShare} aria-label={`Share access to ${name}`}>
            Share access
          </Button>
        ) : null}
        <Button variant="secondary" size="sm" onClick={onReminders} aria-label={`Reminders for ${name}`}>
          Reminders
        </Button>
        <Button variant="secondary" size="sm" onClick={onLeave} aria-label={`Leave ${name}`} className="text-red-700">
          Leave
        </Button>
      </div>
    </li>
  );
}
