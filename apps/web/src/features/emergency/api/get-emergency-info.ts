import type { EmergencyInfo, EmergencyResponse } from '@kinchart/shared/emergency';
import { api } from '../../../lib/api-client';

/**
 * The public emergency view (SPEC §7 Emergency). Type-only imports keep this chunk free of zod:
 * the page is opened on a phone, often on a poor connection.
 */
export type EmergencyKind = 'self' | 'family';
export type { EmergencyInfo, EmergencyResponse };

const paths: Record<EmergencyKind, string> = {
  self: '/api/user/emergency/',
  family: '/api/user/family/emergency/',
};

/**
 * GET /api/user/emergency/{shareId} or /api/user/family/emergency/{shareId}, with `pin` in the
 * query string as the API requires. The PIN is never logged here, and the server redacts it.
 */
export function getEmergencyInfo(kind: EmergencyKind, shareId: string, pin?: string, signal?: AbortSignal): Promise<EmergencyResponse> {
  return api.get<EmergencyResponse>(`${paths[kind]}${encodeURIComponent(shareId)}`, {
    query: pin === undefined ? undefined : { pin },
    signal,
  });
}
