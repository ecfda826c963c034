import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { MessageDescriptor } from '@lingui/core';
import { msg, t as translate } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { FamilyMemberSummary, RELATIONSHIPS } from '@kinchart/shared/profile';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useDeleteFamilyMember } from '../../profiles/api/delete-family-member';
import { useFamilyMembers } from '../../../lib/queries/family-members';
import { AddFamilyMemberModal } from '../../profiles/components/add-family-member-modal';
import { FamilyMemberEditor } from '../../profiles/components/family-member-editor';
import { PetBadge } from '../../../components/ui/pet-marker';
import { StatusMessage } from '../../../components/ui/status-message';
import { formatDate } from '../../../lib/format';
import { errorMessage } from '../../../lib/api-client';
import { serverText } from '../../../i18n/server-messages';
import { peopleQueryKey, usePeople } from '../../../lib/queries/people';
import { AccessHistoryDialog } from '../../sharing/components/access-history-dialog';
import { ShareAccessDialog } from '../../sharing/components/share-access-dialog';
import { ReminderSettingsDialog, type ReminderTarget } from '../../reminders/components/reminder-settings-dialog';
import { MemberActionsMenu } from './member-actions-menu';

export const FAMILY_HEADING_ID = 'settings-family-members-heading';

function displayName(member: FamilyMemberSummary): string {
  return member.name?.trim() || translate`Unnamed member`;
}

/** The add form's relationship values (SPEC §3), stored in English, shown in the reader's language. */
const RELATIONSHIP_LABELS: Record<(typeof RELATIONSHIPS)[number], MessageDescriptor> = {
  spouse: msg`Spouse`,
  child: msg`Child`,
  parent: msg`Parent`,
  sibling: msg`Sibling`,
  other: msg({ message: 'Other', context: 'relationship' }),
};

/** A relationship as people read it; free text from the edit form shows as typed, capitalised. */
function relationshipLabel(relationship: string, translateDescriptor: (descriptor: MessageDescriptor) => string): string {
  const known = Object.hasOwn(RELATIONSHIP_LABELS, relationship.toLowerCase())
    ? RELATIONSHIP_LABELS[relationship.toLowerCase() as keyof typeof RELATIONSHIP_LABELS]
    : undefined;
  return known ? translateDescriptor(known) : relationship.charAt(0).toUpperCase() + relationship.slice(1);
}

/** Whom the sharing dialogs are about: a person's id and their name as running text. */
interface SharingTarget {
  id: string;
  label: string;
}

interface SharingActions {
  onShare: () => void;
  onHistory: () => void;
  /** What this account is reminded of about the person (issue 32). */
  onReminders: () => void;
}

/**
 * DESIGN §11: the owner shares a person and sees who used the share; both sit on the person's card.
 * `name` is a member's name; without one the buttons are about the account holder's own profile.
 */
function SharingButtons({ name, onShare, onHistory, onReminders }: SharingActions & { name: string | null }) {
  const { t } = useLingui();
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        variant="secondary"
        size="sm"
        onClick={onShare}
        aria-label={name === null ? t`Share access to your profile` : t`Share access to ${name}`}
      >
        <Trans>Share access</Trans>
      </Button>
      <Button
        variant="secondary"
        size="sm"
        onClick={onHistory}
        aria-label={name === null ? t`Access history of your profile` : t`Access history of ${name}`}
      >
        <Trans>Access history</Trans>
      </Button>
      <Button
        variant="secondary"
        size="sm"
        onClick={onReminders}
        aria-label={name === null ? t`Reminders for your profile` : t`Reminders for ${name}`}
      >
        <Trans>Reminders</Trans>
      </Button>
    </div>
  );
}

function MemberCard({
  member,
  onEdit,
  onDelete,
  ...sharing
}: { member: FamilyMemberSummary; onEdit: () => void; onDelete: () => void } & SharingActions) {
  const { t, i18n } = useLingui();
  const name = displayName(member);
  const born = member.date_of_birth ? formatDate(member.date_of_birth) : null;
  return (
    <li className="relative flex flex-col rounded-xl border border-slate-200 bg-white shadow-sm transition-colors hover:border-brand-300">
      {/* SPEC §2: clicking the card also edits. */}
      <button type="button" onClick={onEdit} className="flex w-full flex-1 flex-col items-start gap-1 rounded-xl p-4 pe-14 text-start">
        <span className="text-lg font-semibold break-words text-slate-900">{name}</span>
        {member.relationship ? (
          <span className="text-sm text-slate-700">{relationshipLabel(member.relationship, (descriptor) => i18n._(descriptor))}</span>
        ) : null}
        {born ? <span className="text-sm text-slate-700">{t`Born ${born}`}</span> : null}
        {member.is_pet ? (
          <span className="mt-1">
            <PetBadge />
          </span>
        ) : null}
      </button>
      {/* In the order they are seen: the menu at the top, then the sharing actions below. */}
      <div className="absolute top-2 end-2">
        <MemberActionsMenu memberName={name} onEdit={onEdit} onDelete={onDelete} />
      </div>
      <div className="border-t border-slate-200 px-4 py-3">
        <SharingButtons name={name} {...sharing} />
      </div>
    </li>
  );
}

/** The account holder's own profile, shared like a member's (DESIGN §11). */
function OwnProfileCard({ name, ...sharing }: { name: string | null } & SharingActions) {
  const { t } = useLingui();
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between">
      <div className="flex flex-col">
        <span className="text-sm font-medium text-slate-700">
          <Trans>Your profile</Trans>
        </span>
        <span className="text-lg font-semibold break-words text-slate-900">{name ?? t`You`}</span>
      </div>
      <SharingButtons name={null} {...sharing} />
    </div>
  );
}

/** Settings → Family Members (SPEC §2): Add Member, the member cards, edit and delete. */
export function FamilyMembersTab() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const members = useFamilyMembers();
  const people = usePeople();
  const remove = useDeleteFamilyMember();
  const [sharing, setSharing] = useState<SharingTarget | null>(null);
  const [history, setHistory] = useState<SharingTarget | null>(null);
  const [reminders, setReminders] = useState<ReminderTarget | null>(null);
  // The own profile as the people list has it (GET /api/user/people): the person the account holder is.
  const self = people.data?.find((p) => p.is_self && p.shared_by === null);
  // A member added or deleted here is a person added or gone everywhere people are listed.
  const refreshPeople = () => void queryClient.invalidateQueries({ queryKey: peopleQueryKey });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<FamilyMemberSummary | null>(null);
  const [deleting, setDeleting] = useState<FamilyMemberSummary | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const deletingName = deleting ? displayName(deleting) : '';

  const confirmDelete = async () => {
    if (!deleting) return;
    setStatus(null);
    try {
      const answer = await remove.mutateAsync(deleting.id);
      refreshPeople();
      setStatus(serverText(answer) ?? t`Family member deleted successfully`);
    } catch (error) {
      setStatus(errorMessage(error, t`Failed to delete family member`));
    }
    setDeleting(null);
  };

  const body = (
    <QueryState
      query={members}
      loading={t`Loading family members...`}
      error={t`Failed to load family members`}
      isEmpty={(list) => list.length === 0}
      empty={
        <p className="rounded-xl border border-dashed border-slate-300 px-4 py-10 text-center text-slate-700">
          <Trans>No family members added</Trans>
        </p>
      }
    >
      {(list) => (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-labelledby={FAMILY_HEADING_ID}>
          {list.map((member) => (
            <MemberCard
              key={member.id}
              member={member}
              onEdit={() => setEditing(member)}
              onDelete={() => setDeleting(member)}
              onShare={() => setSharing({ id: member.id, label: displayName(member) })}
              onHistory={() => setHistory({ id: member.id, label: displayName(member) })}
              onReminders={() => setReminders({ id: member.id, name: displayName(member), self: false })}
            />
          ))}
        </ul>
      )}
    </QueryState>
  );

  return (
    <section aria-labelledby={FAMILY_HEADING_ID} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={FAMILY_HEADING_ID} tabIndex={-1} className="text-xl font-semibold text-slate-900 focus:outline-none">
            <Trans>Family Members</Trans>
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            <Trans>Profiles for the people and pets you look after.</Trans>
          </p>
        </div>
        <Button onClick={() => setAdding(true)}>
          <Trans>Add Member</Trans>
        </Button>
      </div>
      <StatusMessage message={status} />
      {self ? (
        <OwnProfileCard
          name={self.name}
          onShare={() => setSharing({ id: self.id, label: t`your profile` })}
          onHistory={() => setHistory({ id: self.id, label: t`your profile` })}
          onReminders={() => setReminders({ id: self.id, name: self.name, self: true })}
        />
      ) : null}
      {body}

      <AddFamilyMemberModal
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(message) => {
          refreshPeople();
          setStatus(message);
        }}
      />
      <ShareAccessDialog person={sharing} onClose={() => setSharing(null)} />
      <AccessHistoryDialog person={history} onClose={() => setHistory(null)} />
      <ReminderSettingsDialog person={reminders} onClose={() => setReminders(null)} />
      {editing ? (
        <FamilyMemberEditor variant="modal" member={editing} onSaved={() => setEditing(null)} onCancel={() => setEditing(null)} />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title={t`Delete Member`}
        message={
          deleting
            ? t`Are you sure you want to delete ${deletingName}? Their profile, contacts, providers and medications will be removed.`
            : ''
        }
        confirmLabel={t`Delete Member`}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}
