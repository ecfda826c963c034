import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '@kinchart/shared/common';
import {
  emergencyContactResponseSchema,
  emergencyContactSchema,
  familyAddSchema,
  familyEmergencyContactInputSchema,
  familyHealthcareProviderInputSchema,
  familyMedicationInputSchema,
  familyMemberResponseSchema,
  familyMemberSchema,
  familyMemberSummarySchema,
  familyUpdateSchema,
  healthcareProviderResponseSchema,
  medicationResponseSchema,
  medicationSchema,
} from '@kinchart/shared/profile';
import type { PersonRole } from '@kinchart/shared/people';
import { currentUser } from '../../plugins/session';
import type { PersonAccessService } from '../../common/person-access';
import { actorOf, needOf } from '../../common/request-actor';
import type { ProfileService } from './profile.service';
import { pathId } from './own-profile.routes';

const memberParams = z.object({ id: pathId });

// SPEC §7 "Family": the same profile service, addressed by member id. A member id is any person the
// signed-in user can reach (DESIGN §11): their own family members, and the people shared with them —
// another account's own profile included. The user's own profile is not a member here (SPEC: 404),
// and a person they cannot reach is the same 404 as a missing id. Reads need a viewer, changes an
// editor, deleting the person its owner (the one access function, common/person-access.ts).
export async function familyRoutes(
  app: FastifyInstance,
  opts: { profiles: ProfileService; access: PersonAccessService; requireUser: (request: FastifyRequest) => Promise<void> },
) {
  const { profiles, access } = opts;
  app.addHook('onRequest', opts.requireUser);
  const r = app.withTypeProvider<ZodTypeProvider>();

  /**
   * The member's owner (whose user_id the rows carry) and profile id, once `need` is allowed. The
   * repository goes on filtering by that owner's id.
   */
  const member = async (request: FastifyRequest, memberId: string, need: PersonRole) => {
    const person = await access.member(actorOf(request), memberId, needOf(request, need));
    return { userId: person.ownerId, profileId: person.profileId, isSelf: person.isSelf };
  };

  r.get('/api/user/family/members', { schema: { response: { 200: z.array(familyMemberSummarySchema) } } }, async (request) =>
    profiles.listMembers(currentUser(request).id),
  );

  // SPEC §7: 201 is success.
  r.post(
    '/api/user/family/add',
    { schema: { body: familyAddSchema, response: { 201: familyMemberResponseSchema } } },
    async (request, reply) => {
      const added = await profiles.addMember(currentUser(request).id, request.body);
      return reply.code(201).send({ ...added, message: 'Family member added successfully!' });
    },
  );

  r.get('/api/user/family/members/:id', { schema: { params: memberParams, response: { 200: familyMemberSchema } } }, async (request) => {
    const { userId, profileId } = await member(request, request.params.id, 'viewer');
    return profiles.getPerson(userId, profileId);
  });

  r.put(
    '/api/user/family/members/:id',
    { schema: { params: memberParams, body: familyUpdateSchema, response: { 200: familyMemberResponseSchema } } },
    async (request) => {
      const { userId, profileId, isSelf } = await member(request, request.params.id, 'editor');
      const updated = await profiles.updateMember(userId, profileId, request.body, { isSelf });
      return { ...updated, message: 'Family member updated successfully!' };
    },
  );

  r.delete('/api/user/family/members/:id', { schema: { params: memberParams, response: { 200: messageSchema } } }, async (request) => {
    // DESIGN §11: only the owner deletes the person.
    const { userId, profileId } = await member(request, request.params.id, 'owner');
    await profiles.deleteMember(userId, profileId);
    return { message: 'Family member deleted successfully' };
  });

  // ---------- a member's emergency contacts ----------

  r.get(
    '/api/user/family/members/:id/emergency-contacts',
    { schema: { params: memberParams, response: { 200: z.array(emergencyContactSchema) } } },
    async (request) => {
      const { userId, profileId } = await member(request, request.params.id, 'viewer');
      return profiles.listContacts(userId, profileId);
    },
  );

  r.post(
    '/api/user/family/members/:id/emergency-contacts',
    {
      schema: {
        params: memberParams,
        body: familyEmergencyContactInputSchema,
        response: { 200: emergencyContactResponseSchema, 201: emergencyContactResponseSchema },
      },
    },
    async (request, reply) => {
      const { userId, profileId } = await member(request, request.params.id, 'editor');
      const { contact, created } = await profiles.addContact(userId, profileId, request.body);
      return reply
        .code(created ? 201 : 200)
        .send({ ...contact, message: created ? 'Emergency contact added successfully!' : 'Emergency contact updated successfully!' });
    },
  );

  r.delete(
    '/api/user/family/members/:id/emergency-contacts/:contactId',
    { schema: { params: z.object({ id: pathId, contactId: pathId }), response: { 200: messageSchema } } },
    async (request) => {
      const { userId, profileId } = await member(request, request.params.id, 'editor');
      await profiles.removeContact(userId, profileId, request.params.contactId);
      return { message: 'Emergency contact removed successfully!' };
    },
  );

  // ---------- a member's medications ----------

  r.get(
    '/api/user/family/members/:id/medications',
    { schema: { params: memberParams, response: { 200: z.array(medicationSchema) } } },
    async (request) => {
      const { userId, profileId } = await member(request, request.params.id, 'viewer');
      return profiles.listMedications(userId, profileId);
    },
  );

  r.post(
    '/api/user/family/members/:id/medications',
    { schema: { params: memberParams, body: familyMedicationInputSchema, response: { 201: medicationResponseSchema } } },
    async (request, reply) => {
      const { userId, profileId } = await member(request, request.params.id, 'editor');
      const medication = await profiles.addMedication(userId, profileId, request.body);
      return reply.code(201).send({ ...medication, message: 'Medication added successfully!' });
    },
  );

  // The editor saves each list entry as it is changed (as the own profile does), so an edit is a
  // call of its own too; SPEC §7 names only add and remove for a member's medications.
  r.put(
    '/api/user/family/members/:id/medications/:medId',
    {
      schema: {
        params: z.object({ id: pathId, medId: pathId }),
        body: familyMedicationInputSchema,
        response: { 200: medicationResponseSchema },
      },
    },
    async (request) => {
      const { userId, profileId } = await member(request, request.params.id, 'editor');
      const medication = await profiles.updateMedication(userId, profileId, request.params.medId, request.body);
      return { ...medication, message: 'Medication updated successfully!' };
    },
  );

  r.delete(
    '/api/user/family/members/:id/medications/:medId',
    { schema: { params: z.object({ id: pathId, medId: pathId }), response: { 200: messageSchema } } },
    async (request) => {
      const { userId, profileId } = await member(request, request.params.id, 'editor');
      await profiles.removeMedication(userId, profileId, request.params.medId);
      return { message: 'Medication removed successfully!' };
    },
  );

  // ---------- a member's healthcare providers ----------
  // SPEC §7 has no per-entry calls for a member's providers (they travel only inside the member's
  // PUT). These mirror the own profile's /api/user/healthcare-providers, over the same service
  // (DESIGN §4), with the family rule that a provider needs a name and a phone (SPEC §5).

  r.post(
    '/api/user/family/members/:id/healthcare-providers',
    { schema: { params: memberParams, body: familyHealthcareProviderInputSchema, response: { 201: healthcareProviderResponseSchema } } },
    async (request, reply) => {
      const { userId, profileId } = await member(request, request.params.id, 'editor');
      const provider = await profiles.addProvider(userId, profileId, request.body);
      return reply.code(201).send({ ...provider, message: 'Healthcare provider added successfully!' });
    },
  );

  r.put(
    '/api/user/family/members/:id/healthcare-providers/:providerId',
    {
      schema: {
        params: z.object({ id: pathId, providerId: pathId }),
        body: familyHealthcareProviderInputSchema,
        response: { 200: healthcareProviderResponseSchema },
      },
    },
    async (request) => {
      const { userId, profileId } = await member(request, request.params.id, 'editor');
      const provider = await profiles.updateProvider(userId, profileId, request.params.providerId, request.body);
      return { ...provider, message: 'Healthcare provider updated successfully!' };
    },
  );

  r.delete(
    '/api/user/family/members/:id/healthcare-providers/:providerId',
    { schema: { params: z.object({ id: pathId, providerId: pathId }), response: { 200: messageSchema } } },
    async (request) => {
      const { userId, profileId } = await member(request, request.params.id, 'editor');
      await profiles.removeProvider(userId, profileId, request.params.providerId);
      return { message: 'Healthcare provider removed successfully!' };
    },
  );
}
