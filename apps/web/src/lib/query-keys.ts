/**
 * Query keys that more than one feature touches. The own profile (GET /api/user/getPatientProfile)
 * holds the medications the prescriptions screen edits, so both refresh it.
 */
export const patientProfileQueryKey = ['patient-profile'] as const;
