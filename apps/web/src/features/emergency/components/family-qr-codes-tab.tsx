import type { Person } from '@kinchart/shared/people';
import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { QueryState } from '../../../components/query-state';
import { SharedByBadge } from '../../../components/ui/shared-by-badge';
import { useAppEvent } from '../../../lib/events';
import { useFamilyMembers } from '../../../lib/queries/family-members';
import { usePeople } from '../../../lib/queries/people';
import { MemberQrPanel } from './member-qr-panel';

/** A person another account shares with this one as manager: they run that person's code (DESIGN §11). */
type Managed = Person & { shared_by: string };

const isManaged = (person: Person): person is Managed => person.shared_by !== null && person.role === 'manager';

/** A managed person's name; an own profile without one reads as its owner's. */
function managedName(person: Managed): string {
  const owner = person.shared_by;
  return person.name?.trim() || (person.is_self ? t`${owner}’s profile` : t`Unnamed member`);
}

/**
 * Settings → Family QR Codes: one QR panel per family member (SPEC §2), then one per person the
 * account manages for someone else — only those: a viewer or editor does not run the code.
 */
export function FamilyQrCodesTab() {
  const { t } = useLingui();
  const members = useFamilyMembers();
  const people = usePeople();
  // SPEC §4: a family member update is announced page-wide; the member list may have changed.
  useAppEvent('familyMemberUpdated', () => void members.refetch());
  const managed = (people.data ?? []).filter(isManaged);

  // The people list only adds to the family members: without it, the tab still shows those.
  const body = (
    <QueryState
      query={members}
      waitFor={people.isPending}
      loading={t`Loading family members...`}
      error={t`Failed to load family members`}
      isEmpty={(list) => list.length === 0 && managed.length === 0}
      empty={
        <p className="text-slate-700">
          <Trans>No family members added</Trans>
        </p>
      }
    >
      {(list) => (
        <ul className="flex flex-col gap-6">
          {list.map((member) => (
            <li key={member.id}>
              <MemberQrPanel memberId={member.id} memberName={member.name} headingLevel={3} />
            </li>
          ))}
          {managed.map((person) => (
            <li key={person.id} className="flex flex-col gap-2">
              <SharedByBadge username={person.shared_by} className="self-start" />
              <MemberQrPanel memberId={person.id} memberName={managedName(person)} headingLevel={3} />
            </li>
          ))}
        </ul>
      )}
    </QueryState>
  );

  return (
    <section aria-labelledby="family-qr-codes-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="family-qr-codes-heading" className="text-xl font-semibold text-slate-900">
          <Trans>Family QR Codes</Trans>
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          {managed.length > 0
            ? t`Each family member and pet can have their own code and PIN, and so can the people you manage for others.`
            : t`Each family member and pet can have their own code and PIN.`}
        </p>
      </div>
      {body}
    </section>
  );
}
