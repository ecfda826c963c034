import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import type { PatientProfile } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { patientProfileQueryKey } from '../../../lib/queries/patient-profile';

/** DELETE /api/user/emergency-contacts/{contact_id}. */
export async function removeEmergencyContact(contactId: string): Promise<MessageResponse> {
  return messageSchema.parse(await api.delete(`/api/user/emergency-contacts/${encodeURIComponent(contactId)}`));
}

export function useRemoveEmergencyContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeEmergencyContact,
    onSuccess: async (_answer, contactId) => {
      queryClient.setQueryData<PatientProfile>(
        patientProfileQueryKey,
        (profile) => profile && { ...profile, emergency_contacts: profile.emergency_contacts.filter((c) => c.id !== contactId) },
      );
      await queryClient.invalidateQueries({ queryKey: patientProfileQueryKey });
    },
  });
}
