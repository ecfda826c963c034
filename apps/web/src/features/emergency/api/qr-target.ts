/**
 * Whose emergency code: the signed-in person's own, or one family member's. The personal and
 * the per-member endpoints (SPEC §7 QR) differ only in their paths, so every call below takes a
 * target and the screens are written once and mounted twice (STYLE habit 4).
 */
export type QrTarget = { self: true } | { memberId: string };

export const SELF_TARGET: QrTarget = { self: true };

export function isSelf(target: QrTarget): target is { self: true } {
  return 'self' in target;
}

/** The base path of the target's QR endpoints. */
export function qrBasePath(target: QrTarget): string {
  return isSelf(target) ? '/api/user/wearable-qr' : `/api/user/family/members/${encodeURIComponent(target.memberId)}/qr`;
}

/** The query key of the target's QR configuration; mutations write their answers here. */
export function qrConfigKey(target: QrTarget) {
  return ['qr-config', isSelf(target) ? 'self' : target.memberId] as const;
}
