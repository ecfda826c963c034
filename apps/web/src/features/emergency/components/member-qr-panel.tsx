/** One family member's emergency QR code (SPEC §2). Placeholder; the real panel lands shortly. */
export function MemberQrPanel({ memberId, memberName }: { memberId: string; memberName?: string | null }) {
  return (
    <section aria-label={`Emergency QR code for ${memberName ?? 'family member'}`} data-member-id={memberId}>
      <h3 className="text-lg font-semibold text-slate-900">{memberName ?? 'Family member'}</h3>
    </section>
  );
}
