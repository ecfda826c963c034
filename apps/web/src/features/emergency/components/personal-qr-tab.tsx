/** Settings → Personal QR Code (SPEC §2). Placeholder; the real panel lands shortly. */
export function PersonalQrTab() {
  return <h2 className="text-xl font-semibold text-slate-900">Personal QR Code</h2>;
}
