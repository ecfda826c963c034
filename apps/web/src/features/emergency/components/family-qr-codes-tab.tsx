import type { Person } from '@kinchart/shared/people';
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
const managedName = (person: Managed): string =>
  person.name?.trim() || (person.is_self ? `${person.shared_by}’s profile` : 'Unnamed member');

/**
 * Settings → Family QR Codes: one QR panel per family member (SPEC §2), then one per person the
 * account manages for someone else — only those: a viewer or editor does not run the code.
 */
export function FamilyQrCodesTab() {
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
      loading="Loading family members..."
      error="Failed to load family members"
      isEmpty={(list) => list.length === 0 && managed.length === 0}
      empty={<p className="text-slate-700">No family members added</p>}
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
          Family QR Codes
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          Each family member and pet can have their own code and PIN
          {managed.length > 0 ? ', and so can the people you manage for others' : ''}.
        </p>
      </div>
      {body}
    </section>
  );
}
