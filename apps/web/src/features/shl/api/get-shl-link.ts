import { useQuery } from '@tanstack/react-query';
import { shlLinkSchema, type ShlLink } from '@kinchart/shared/shl';
import { api } from '../../../lib/api-client';

/** Whose code: the signed-in person's own, or a family member's (the same shape the QR panels use). */
export type ShlTarget = { self: true } | { memberId: string };

export function shlPath(target: ShlTarget): string {
  return 'self' in target ? '/api/user/wearable-qr/shl' : `/api/user/family/members/${encodeURIComponent(target.memberId)}/qr/shl`;
}

/**
 * POST …/shl: the code's SMART Health Link — made on the first ask, the same link after. Making it
 * changes state, so it is a POST (GET only reads one already made); repeating it is harmless,
 * which is why a query may own it.
 */
export async function getShlLink(target: ShlTarget): Promise<ShlLink> {
  return shlLinkSchema.parse(await api.post(shlPath(target)));
}

export function useShlLink(target: ShlTarget, enabled: boolean) {
  return useQuery({
    queryKey: ['shl-link', 'self' in target ? 'self' : target.memberId],
    queryFn: () => getShlLink(target),
    enabled,
    // The link holds its decryption key: keep it in memory only while it is on screen.
    gcTime: 0,
    staleTime: Infinity,
  });
}
