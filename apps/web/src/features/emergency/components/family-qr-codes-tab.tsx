/** Settings → Family QR Codes (SPEC §2). Placeholder; the real panels land shortly. */
export function FamilyQrCodesTab() {
  return <h2 className="text-xl font-semibold text-slate-900">Family QR Codes</h2>;
}
