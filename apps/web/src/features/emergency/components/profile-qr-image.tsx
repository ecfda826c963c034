/** The dashboard QR image (SPEC §2). Placeholder; renders nothing until the real one lands. */
export function ProfileQrImage({ target }: { target: { self: true } | { memberId: string } }) {
  void target;
  return null;
}
