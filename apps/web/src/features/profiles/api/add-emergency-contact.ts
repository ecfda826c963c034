import { useMutation, useQueryClient } from '@tanstack/react-query';
import { emergencyContactResponseSchema, type EmergencyContactInput, type PatientProfile } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { patientProfileQueryKey } from '../../../lib/queries/patient-profile';

/**
 * POST /api/user/emergency-contacts. SPEC §7: the contact editor saves through this call too — a
 * body carrying one of the profile's `contact_id`s updates that contact (200) instead of adding (201).
 */
export async function addEmergencyContact(input: EmergencyContactInput) {
  return emergencyContactResponseSchema.parse(await api.post('/api/user/emergency-contacts', input));
}

export function useAddEmergencyContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addEmergencyContact,
    onSuccess: async ({ message: _message, ...contact }) => {
      // SPEC §4: the list updates locally at once; the refetch confirms it.
      queryClient.setQueryData<PatientProfile>(patientProfileQueryKey, (profile) => {
        if (!profile) return profile;
        const exists = profile.emergency_contacts.some((c) => c.id === contact.id);
        return {
          ...profile,
          emergency_contacts: exists
            ? profile.emergency_contacts.map((c) => (c.id === contact.id ? contact : c))
            : [...profile.emergency_contacts, contact],
        };
      });
      await queryClient.invalidateQueries({ queryKey: patientProfileQueryKey });
    },
  });
}
