import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '@kinchart/shared/common';
import {
  basicProfileSchema,
  emergencyContactInputSchema,
  emergencyContactResponseSchema,
  healthcareProviderInputSchema,
  healthcareProviderResponseSchema,
  medicationInputSchema,
  medicationResponseSchema,
  medicationSchema,
  patientProfileSchema,
  profileUpdateSchema,
} from '@kinchart/shared/profile';
import { personFilterSchema } from '@kinchart/shared/people';
import { currentUser } from '../../plugins/session';
import type { PersonAccessService } from '../../common/person-access';
import { actorOf, needOf } from '../../common/request-actor';
import type { ProfileService } from './profile.service';

/** Path ids are opaque: any short string; one that names nothing of yours is a 404. */
export const pathId = z.string().max(64, 'must be at most 64 characters');

const PROFILE_UPDATED = 'Profile updated successfully!';

// SPEC §7 "Own profile": the signed-in user's own profile, over the same service as family members.
export async function ownProfileRoutes(
  app: FastifyInstance,
  opts: { profiles: ProfileService; access: PersonAccessService; requireUser: (request: FastifyRequest) => Promise<void> },
) {
  const { profiles, access } = opts;
  // Every route here needs a session; checked before the body is even parsed (401 before 400).
  app.addHook('onRequest', opts.requireUser);
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** The signed-in user and their own profile id. */
  const own = async (request: FastifyRequest) => {
    const userId = currentUser(request).id;
    return { userId, profileId: await profiles.ownProfileId(userId) };
  };

  // Sent as the JSON text the service keeps per account version (already checked against the
  // schema, which stays here as documentation), so it is registered without the type provider.
  app.get('/api/user/getPatientProfile', { schema: { response: { 200: patientProfileSchema } } }, async (request, reply) =>
    reply.type('application/json; charset=utf-8').send(await profiles.patientProfileJson(currentUser(request))),
  );

  r.post('/api/user/profile', { schema: { body: basicProfileSchema, response: { 200: messageSchema } } }, async (request) => {
    const { userId, profileId } = await own(request);
    await profiles.updateBasic(userId, profileId, request.body);
    return { message: PROFILE_UPDATED };
  });

  r.put('/api/user/updateProfile', { schema: { body: profileUpdateSchema, response: { 200: messageSchema } } }, async (request) => {
    const { userId, profileId } = await own(request);
    await profiles.updateProfile(userId, profileId, request.body);
    return { message: PROFILE_UPDATED };
  });

  // ---------- emergency contacts ----------

  r.post(
    '/api/user/emergency-contacts',
    {
      schema: { body: emergencyContactInputSchema, response: { 200: emergencyContactResponseSchema, 201: emergencyContactResponseSchema } },
    },
    async (request, reply) => {
      const { userId, profileId } = await own(request);
      const { contact, created } = await profiles.addContact(userId, profileId, request.body);
      return reply
        .code(created ? 201 : 200)
        .send({ ...contact, message: created ? 'Emergency contact added successfully!' : 'Emergency contact updated successfully!' });
    },
  );

  r.delete(
    '/api/user/emergency-contacts/:contact_id',
    { schema: { params: z.object({ contact_id: pathId }), response: { 200: messageSchema } } },
    async (request) => {
      const { userId, profileId } = await own(request);
      await profiles.removeContact(userId, profileId, request.params.contact_id);
      return { message: 'Emergency contact removed successfully!' };
    },
  );

  // ---------- medications ----------

  // The Prescriptions screen's list (SPEC §2): the own profile's medications, as getPatientProfile
  // carries them; `?person=` reads those of another person the user can see (DESIGN §11, viewer).
  r.get(
    '/api/user/medications',
    { schema: { querystring: personFilterSchema, response: { 200: z.array(medicationSchema) } } },
    async (request) => {
      const { person } = request.query;
      if (person === undefined) {
        const { userId, profileId } = await own(request);
        return profiles.listMedications(userId, profileId);
      }
      const found = await access.require(actorOf(request), person, needOf(request, 'viewer'));
      return profiles.listMedications(found.ownerId, found.profileId);
    },
  );

  r.post(
    '/api/user/medications',
    { schema: { body: medicationInputSchema, response: { 201: medicationResponseSchema } } },
    async (request, reply) => {
      const { userId, profileId } = await own(request);
      const medication = await profiles.addMedication(userId, profileId, request.body);
      return reply.code(201).send({ ...medication, message: 'Medication added successfully!' });
    },
  );

  r.put(
    '/api/user/medications/:id',
    { schema: { params: z.object({ id: pathId }), body: medicationInputSchema, response: { 200: medicationResponseSchema } } },
    async (request) => {
      const { userId, profileId } = await own(request);
      const medication = await profiles.updateMedication(userId, profileId, request.params.id, request.body);
      return { ...medication, message: 'Medication updated successfully!' };
    },
  );

  r.delete(
    '/api/user/medications/:id',
    { schema: { params: z.object({ id: pathId }), response: { 200: messageSchema } } },
    async (request) => {
      const { userId, profileId } = await own(request);
      await profiles.removeMedication(userId, profileId, request.params.id);
      return { message: 'Medication removed successfully!' };
    },
  );

  // ---------- healthcare providers ----------

  r.post(
    '/api/user/healthcare-providers',
    { schema: { body: healthcareProviderInputSchema, response: { 201: healthcareProviderResponseSchema } } },
    async (request, reply) => {
      const { userId, profileId } = await own(request);
      const provider = await profiles.addProvider(userId, profileId, request.body);
      return reply.code(201).send({ ...provider, message: 'Healthcare provider added successfully!' });
    },
  );

  r.put(
    '/api/user/healthcare-providers/:provider_id',
    {
      schema: {
        params: z.object({ provider_id: pathId }),
        body: healthcareProviderInputSchema,
        response: { 200: healthcareProviderResponseSchema },
      },
    },
    async (request) => {
      const { userId, profileId } = await own(request);
      const provider = await profiles.updateProvider(userId, profileId, request.params.provider_id, request.body);
      return { ...provider, message: 'Healthcare provider updated successfully!' };
    },
  );

  r.delete(
    '/api/user/healthcare-providers/:provider_id',
    { schema: { params: z.object({ provider_id: pathId }), response: { 200: messageSchema } } },
    async (request) => {
      const { userId, profileId } = await own(request);
      await profiles.removeProvider(userId, profileId, request.params.provider_id);
      return { message: 'Healthcare provider removed successfully!' };
    },
  );
}
