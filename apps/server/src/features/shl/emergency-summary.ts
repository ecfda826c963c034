import type { ProfileBundle } from '../profiles/profile.service';
import { buildIpsBundle } from '../export/fhir-ips';
import type { AllergyValues } from '../allergies/allergy-entries';

/**
 * The person's IPS Bundle as a stranger with the PIN may see it (DESIGN §7): exactly what the
 * emergency page shows — no address, phone or email of the person, no past medications, no
 * provider notes, and never files, appointments, notifications or account data. The projection
 * mirrors emergency-info.repository.ts, which is the page's allowlist.
 */
export function emergencyProjection(bundle: ProfileBundle): ProfileBundle {
  return {
    profile: { ...bundle.profile, phone_number: null, address: null, email: null },
    emergency_contacts: bundle.emergency_contacts,
    healthcare_providers: bundle.healthcare_providers.map((h) => ({ ...h, email: null, address: null, notes: null })),
    medications: bundle.medications.filter((m) => m.is_current).map((m) => ({ ...m, start_date: null, end_date: null })),
  };
}

/**
 * The person's emergency IPS Bundle, built from their profile bundle (ProfileService.bundle) and
 * their allergy entries (decision 0053: codes, reactions, severity, criticality, as the page shows them).
 */
export function buildEmergencySummary(
  bundle: ProfileBundle,
  allergies: readonly AllergyValues[] = [],
  now = new Date(),
): Record<string, unknown> {
  return buildIpsBundle({ person: emergencyProjection(bundle), allergies, appointments: [], documents: [], now, withIdentifier: false });
}
