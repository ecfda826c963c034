import { Button } from '../../../components/ui/button';
import { useAppEvent } from '../../../lib/events';
import { useFamilyMembers } from '../../../lib/queries/family-members';
import { MemberQrPanel } from './member-qr-panel';

/** Settings → Family QR Codes: one QR panel per family member (SPEC §2). */
export function FamilyQrCodesTab() {
  const members = useFamilyMembers();
  // SPEC §4: a family member update is announced page-wide; the member list may have changed.
  useAppEvent('familyMemberUpdated', () => void members.refetch());

  let body;
  if (members.isPending) {
    body = <p className="text-slate-700">Loading family members...</p>;
  } else if (members.isError || !Array.isArray(members.data)) {
    body = (
      <div className="flex flex-wrap items-center gap-3">
        <p role="alert" className="font-medium text-red-700">
          Failed to load family members
        </p>
        <Button variant="secondary" size="sm" onClick={() => void members.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (members.data.length === 0) {
    body = <p className="text-slate-700">No family members added</p>;
  } else {
    body = (
      <ul className="flex flex-col gap-6">
        {members.data.map((member) => (
          <li key={member.id}>
            <MemberQrPanel memberId={member.id} memberName={member.name} headingLevel={3} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section aria-labelledby="family-qr-codes-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="family-qr-codes-heading" className="text-xl font-semibold text-slate-900">
          Family QR Codes
        </h2>
        <p className="mt-1 text-sm text-slate-700">Each family member and pet can have their own code and PIN.</p>
      </div>
      {body}
    </section>
  );
}
