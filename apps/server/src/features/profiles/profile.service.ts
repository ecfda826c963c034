import type { z } from 'zod';
import type {
  EmergencyContact,
  FamilyMember,
  FamilyMemberSummary,
  HealthcareProvider,
  Medication,
  PatientProfile,
  ProfileFields,
  basicProfileSchema,
  emergencyContactInputSchema,
  familyAddSchema,
  familyUpdateSchema,
  healthcareProviderInputSchema,
  medicationInputSchema,
  profileUpdateSchema,
} from '@kinchart/shared/profile';
import { PROFILE_FIELD_NAMES, fieldsForKind, listFullMessage, patientProfileSchema } from '@kinchart/shared/profile';
import type { Db } from '../../db/database';
import { badRequest, notFound } from '../../lib/http-errors';
import type { SessionUser } from '../../common/session.repository';
import { createPatientProfileCache } from './patient-profile-cache';
import type { ContactValues, MedicationValues, ProfileBundle, ProfileLists, ProviderValues, WithClientId } from './profile.repository';
import { createProfileRepository } from './profile.repository';

/** A person's profile with its lists, as `bundle` answers it (what the export and the SMART Health Links build on). */
export type { ProfileBundle } from './profile.repository';

// DESIGN §4: one profile service for the account holder's own profile and every family member.
// Each function takes the person's owner id and a profile id that the route has already resolved
// (ownProfileId, or the one access function for a member — DESIGN §11); the repository still
// filters by that owner's user_id and the profile_id.

type BasicProfile = z.output<typeof basicProfileSchema>;
type ProfileUpdate = z.output<typeof profileUpdateSchema>;
type FamilyAdd = z.output<typeof familyAddSchema>;
type FamilyUpdate = z.output<typeof familyUpdateSchema>;
// The family variants are the same shapes with stricter rules, so these accept both.
type ContactInput = z.output<typeof emergencyContactInputSchema>;
type ProviderInput = z.output<typeof healthcareProviderInputSchema>;
type MedicationInput = z.output<typeof medicationInputSchema>;

const contactValues = (c: ContactInput): WithClientId<ContactValues> => ({
  clientId: c.contact_id ?? c.id,
  name: c.name,
  relationship: c.relationship,
  phone_number: c.phone_number,
  email: c.email,
  is_primary: c.is_primary,
  has_medical_power: c.has_medical_power,
});

const providerValues = (p: ProviderInput): WithClientId<ProviderValues> => ({
  clientId: p.provider_id ?? p.id,
  provider_name: p.provider_name,
  specialty: p.specialty,
  facility: p.facility,
  phone_number: p.phone_number,
  email: p.email,
  address: p.address,
  is_primary: p.is_primary,
  notes: p.notes,
});

const medicationValues = (m: MedicationInput): WithClientId<MedicationValues> => ({
  clientId: m.medication_id ?? m.id,
  medication_name: m.medication_name,
  dosage: m.dosage,
  frequency: m.frequency,
  purpose: m.purpose,
  start_date: m.start_date,
  end_date: m.end_date,
  is_current: m.is_current,
});

/** Just the profile columns of a parsed body (the body also carries username, lists, …). */
function profileFields(input: ProfileFields): ProfileFields {
  const fields: Record<string, unknown> = {};
  for (const key of PROFILE_FIELD_NAMES) fields[key] = input[key];
  return fields as ProfileFields;
}

/** Nested lists of a parsed body: only the lists the body carries are replaced. */
function listsOf(input: {
  emergency_contacts?: ContactInput[] | undefined;
  healthcare_providers?: ProviderInput[] | undefined;
  medications?: MedicationInput[] | undefined;
}): ProfileLists {
  return {
    emergency_contacts: input.emergency_contacts?.map(contactValues),
    healthcare_providers: input.healthcare_providers?.map(providerValues),
    medications: input.medications?.map(medicationValues),
  };
}

function memberOf(bundle: ProfileBundle): FamilyMember {
  const { is_self: _isSelf, ...profile } = bundle.profile;
  return {
    ...profile,
    member_id: profile.id,
    emergency_contacts: bundle.emergency_contacts,
    healthcare_providers: bundle.healthcare_providers,
    medications: bundle.medications,
  };
}

export function createProfileService(deps: { db: Db }) {
  const repo = createProfileRepository(deps.db);
  const cache = createPatientProfileCache();

  async function ownProfileId(userId: string): Promise<string> {
    const id = await repo.selfProfileId(userId);
    if (!id) throw notFound('Profile not found');
    return id;
  }

  async function loadMember(userId: string, memberId: string): Promise<FamilyMember> {
    const bundle = await repo.loadBundle(userId, memberId);
    if (!bundle || bundle.profile.is_self) throw notFound('Family member not found');
    return memberOf(bundle);
  }

  async function loadPatientProfile(userId: string): Promise<PatientProfile> {
    const [self, family] = await Promise.all([repo.loadSelf(userId), repo.listMembers(userId)]);
    if (!self) throw notFound('Profile not found');
    const { is_self: _isSelf, relationship: _relationship, is_pet: _isPet, ...profile } = self.profile;
    return {
      ...profile,
      username: self.username,
      account_email: self.account_email,
      emergency_contacts: self.emergency_contacts,
      healthcare_providers: self.healthcare_providers,
      medications: self.medications,
      family_members: family,
    };
  }

  /** Writes profile columns, the username and any lists the body carries — all or nothing. */
  async function saveProfile(
    userId: string,
    profileId: string,
    change: {
      fields: Partial<ProfileFields>;
      username?: string | undefined;
      member?: { relationship: string; is_pet: boolean };
      lists?: ProfileLists;
    },
  ): Promise<void> {
    await repo.transaction(async (tx) => {
      // Only when the profile vanished since the route resolved it (a concurrent delete).
      if (!(await tx.updateProfile(userId, profileId, change.fields, change.member))) {
        throw notFound(change.member ? 'Family member not found' : 'Profile not found');
      }
      if (change.username) await tx.updateUsername(userId, change.username);
      if (change.lists) await tx.replaceLists(userId, profileId, change.lists);
    });
  }

  return {
    /**
     * One of the user's people (own profile or a family member) with its lists, as the export and
     * the FHIR builders read it; undefined when it is not the user's.
     */
    bundle: (userId: string, profileId: string): Promise<ProfileBundle | undefined> => repo.loadBundle(userId, profileId),

    /**
     * Any one of the owner's people — their own profile included — in the family member answer's
     * shape (GET /api/user/people/{personId}); undefined when it is not the owner's.
     */
    async person(ownerId: string, profileId: string): Promise<FamilyMember | undefined> {
      const bundle = await repo.loadBundle(ownerId, profileId);
      return bundle && memberOf(bundle);
    },

    ownProfileId,

    /**
     * GET /api/user/getPatientProfile as JSON (UTF-8 bytes), from the cache while the account's data is
     * unchanged. Parsed by the response schema exactly as Fastify's serializer would.
     */
    async patientProfileJson(user: SessionUser): Promise<Buffer> {
      const cached = cache.get(user);
      if (cached !== undefined) return cached;
      const parsed = patientProfileSchema.safeParse(await loadPatientProfile(user.id));
      // Like Fastify's response serializer: a 500, logged with the failing fields' names only.
      if (!parsed.success) {
        const fields = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
        throw new Error(`profile answer does not match its schema at ${fields}`);
      }
      const body = Buffer.from(JSON.stringify(parsed.data));
      cache.set(user, body);
      return body;
    },

    /** POST /api/user/profile: the four 'Complete Your Profile' fields, and the username when sent. */
    async updateBasic(userId: string, profileId: string, input: BasicProfile): Promise<void> {
      const { name, date_of_birth, address, phone_number } = input;
      await saveProfile(userId, profileId, { fields: { name, date_of_birth, address, phone_number }, username: input.username });
    },

    /**
     * PUT /api/user/updateProfile. The client sends the whole profile, so the body is the full new
     * state of every profile field: a field left out is stored empty (null, or false for a flag) —
     * the schema has already made it so. Nested lists are different: one left out is kept as it
     * is (the editor's tabs also save them one by one); one that is sent replaces the stored list.
     */
    async updateProfile(userId: string, profileId: string, input: ProfileUpdate): Promise<void> {
      // The account holder is a person: no pet fields (docs/decisions/0037).
      await saveProfile(userId, profileId, {
        fields: fieldsForKind(profileFields(input), false),
        username: input.username,
        lists: listsOf(input),
      });
    },

    // ---------- family members ----------

    listMembers: (userId: string): Promise<FamilyMemberSummary[]> => repo.listMembers(userId),

    /**
     * GET /api/user/family/members/{id}: one person reached through a member route (a shared
     * account's own profile included, DESIGN §11); 404 if it vanished since the route checked it.
     */
    async getPerson(ownerId: string, profileId: string): Promise<FamilyMember> {
      const bundle = await repo.loadBundle(ownerId, profileId);
      if (!bundle) throw notFound('Family member not found');
      return memberOf(bundle);
    },

    /** A person added with pet fields is stored without them (docs/decisions/0037). */
    async addMember(userId: string, input: FamilyAdd): Promise<FamilyMember> {
      // A new person left without a zone follows the account's (null).
      const id = await repo.insertMember(userId, { ...fieldsForKind(input, input.is_pet), time_zone: input.time_zone ?? null });
      return loadMember(userId, id);
    },

    /**
     * PUT /api/user/family/members/{id}: same rules as updateProfile, plus relationship and is_pet —
     * which an account's own profile (shared with the editor, DESIGN §11) does not have: for it they
     * are left as they are. A pet's human-only fields and a person's pet fields are stored empty
     * (docs/decisions/0037), whatever the body says.
     */
    async updateMember(userId: string, memberId: string, input: FamilyUpdate, options: { isSelf?: boolean } = {}): Promise<FamilyMember> {
      await saveProfile(userId, memberId, {
        fields: fieldsForKind(profileFields(input), !options.isSelf && input.is_pet),
        ...(options.isSelf ? {} : { member: { relationship: input.relationship, is_pet: input.is_pet } }),
        lists: listsOf(input),
      });
      const bundle = await repo.loadBundle(userId, memberId);
      if (!bundle) throw notFound('Family member not found');
      return memberOf(bundle);
    },

    /**
     * Deletes a family member. Their record files and appointments move to the owner's own profile
     * in the same transaction (DESIGN §4: nothing is lost); contacts, providers, medications, the
     * emergency code and the person's shares go with them.
     */
    async deleteMember(userId: string, memberId: string): Promise<void> {
      if (!(await repo.deleteMember(userId, memberId))) throw notFound('Family member not found');
    },

    // ---------- emergency contacts ----------

    listContacts: (userId: string, profileId: string): Promise<EmergencyContact[]> => repo.listContacts(userId, profileId),

    /**
     * SPEC §7: the contact editor saves through the add call. A body that carries the id of one of
     * this profile's contacts therefore updates that contact; any other body adds a new one.
     */
    async addContact(userId: string, profileId: string, input: ContactInput): Promise<{ contact: EmergencyContact; created: boolean }> {
      const { clientId, ...values } = contactValues(input);
      if (clientId) {
        const updated = await repo.updateContact(userId, profileId, clientId, values);
        if (updated) return { contact: updated, created: false };
      }
      const contact = await repo.insertContact(userId, profileId, values);
      if (!contact) throw badRequest(listFullMessage('emergency_contacts'));
      return { contact, created: true };
    },

    async removeContact(userId: string, profileId: string, contactId: string): Promise<void> {
      if (!(await repo.deleteContact(userId, profileId, contactId))) throw notFound('Emergency contact not found');
    },

    // ---------- healthcare providers ----------

    listProviders: (userId: string, profileId: string): Promise<HealthcareProvider[]> => repo.listProviders(userId, profileId),

    async addProvider(userId: string, profileId: string, input: ProviderInput): Promise<HealthcareProvider> {
      const { clientId: _ignored, ...values } = providerValues(input);
      const provider = await repo.insertProvider(userId, profileId, values);
      if (!provider) throw badRequest(listFullMessage('healthcare_providers'));
      return provider;
    },

    async updateProvider(userId: string, profileId: string, providerId: string, input: ProviderInput): Promise<HealthcareProvider> {
      const { clientId: _ignored, ...values } = providerValues(input);
      const updated = await repo.updateProvider(userId, profileId, providerId, values);
      if (!updated) throw notFound('Healthcare provider not found');
      return updated;
    },

    async removeProvider(userId: string, profileId: string, providerId: string): Promise<void> {
      if (!(await repo.deleteProvider(userId, profileId, providerId))) throw notFound('Healthcare provider not found');
    },

    // ---------- medications ----------

    listMedications: (userId: string, profileId: string): Promise<Medication[]> => repo.listMedications(userId, profileId),

    async addMedication(userId: string, profileId: string, input: MedicationInput): Promise<Medication> {
      const { clientId: _ignored, ...values } = medicationValues(input);
      const medication = await repo.insertMedication(userId, profileId, values);
      if (!medication) throw badRequest(listFullMessage('medications'));
      return medication;
    },

    async updateMedication(userId: string, profileId: string, medicationId: string, input: MedicationInput): Promise<Medication> {
      const { clientId: _ignored, ...values } = medicationValues(input);
      const updated = await repo.updateMedication(userId, profileId, medicationId, values);
      if (!updated) throw notFound('Medication not found');
      return updated;
    },

    async removeMedication(userId: string, profileId: string, medicationId: string): Promise<void> {
      if (!(await repo.deleteMedication(userId, profileId, medicationId))) throw notFound('Medication not found');
    },
  };
}
export type ProfileService = ReturnType<typeof createProfileService>;
