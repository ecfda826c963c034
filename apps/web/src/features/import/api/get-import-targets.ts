import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface ImportTarget {
  id: string;
  label: string;
}

/** Whose profile a FHIR Bundle can go to: 'My Profile', then each family member (SPEC §7 family list). */
export async function getImportTargets(): Promise<ImportTarget[]> {
  const members = await api.get<{ id: string; name: string | null; is_pet: boolean }[]>('/api/user/family/members');
  return [{ id: 'self', label: 'My Profile' }, ...members.map((m) => ({ id: m.id, label: `${m.name?.trim() || 'Unnamed member'}${m.is_pet ? ' (pet)' : ''}` }))];
}

export function useImportTargets(enabled: boolean) {
  return useQuery({ queryKey: ['import-targets'], queryFn: getImportTargets, enabled });
}
