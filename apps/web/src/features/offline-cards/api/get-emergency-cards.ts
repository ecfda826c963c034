import { emergencyCardsSchema, type EmergencyCard } from '@kinchart/shared/emergency';
import { api } from '../../../lib/api-client';

export type { EmergencyCard };

/**
 * GET /api/user/emergency-cards: the signed-in owner's own card and each family member's and
 * pet's, in the emergency page's shape, with each active code's QR link (DESIGN §7).
 */
export async function getEmergencyCards(): Promise<EmergencyCard[]> {
  return emergencyCardsSchema.parse(await api.get('/api/user/emergency-cards')).cards;
}
