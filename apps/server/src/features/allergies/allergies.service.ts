import type { Allergy, AllergyInput } from '@kinchart/shared/allergies';
import { ALLERGY_MESSAGES, allergyLine } from '@kinchart/shared/allergies';
import { DETAILS_MAX } from '@kinchart/shared/profile';
import { saysNoAllergies } from '@kinchart/shared/problem-lines';
import type { Db } from '../../db/database';
import { HttpError, badRequest, notFound } from '../../lib/http-errors';
import type { AccessNeed, Actor, PersonAccessService } from '../../common/person-access';
import type { AllergyEntry, AllergyValues, PlannedEntry } from './allergy-entries';
import { allergyAnswer, detailsOf, entriesForDetails } from './allergy-entries';
import type { AllergyQueries } from './allergies.repository';
import { allergyQueries, createAllergiesRepository } from './allergies.repository';

/** A route's name in the owner's access history ("GET /api/user/people/:personId/allergies"). */
type RouteName = string;

const TOO_LONG = `Allergies: the allergy details would pass ${DETAILS_MAX} characters`;

/**
 * Writes `planned` as the person's entries and the details text they make, with the flag `flag`;
 * false (nothing written) when the text would not fit the profile's details (DETAILS_MAX).
 */
async function writeEntries(
  q: AllergyQueries,
  person: { ownerId: string; profileId: string },
  current: readonly AllergyEntry[],
  planned: readonly PlannedEntry[],
  flag: boolean,
): Promise<boolean> {
  const details = detailsOf(planned.map((p) => p.values));
  if ((details ?? '').length > DETAILS_MAX) return false;
  await q.write(person.ownerId, person.profileId, current, planned);
  await q.setProfileAllergies(person.ownerId, person.profileId, flag, details);
  return true;
}

/**
 * A person's allergies (issue 34, docs/decisions/0053). The person in the path decides who reaches
 * them, through the one access function: a viewer reads, an editor adds, edits and deletes; anyone
 * else gets the same 404 as for a missing id, and an entry of another person answers 404 too. Every
 * write changes the entries and the profile's `has_allergies` / `allergy_details` in one transaction.
 */
export function createAllergiesService(deps: { db: Db; access: PersonAccessService }) {
  const { access } = deps;
  const repo = createAllergiesRepository(deps.db);
  const need = (role: AccessNeed['need'], what: RouteName): AccessNeed => ({ need: role, what });

  /** An editor's access to the person; no access answers the entry's 404 (403 stays for a viewer). */
  async function editor(actor: Actor, route: RouteName, personId: string) {
    return access.require(actor, personId, need('editor', route)).catch((error: unknown) => {
      throw error instanceof HttpError && error.statusCode === 404 ? notFound(ALLERGY_MESSAGES.notFound) : error;
    });
  }

  const valuesOf = (input: AllergyInput, before?: AllergyValues): AllergyValues => ({
    substance: input.substance,
    reactions: input.reactions,
    severity: input.severity,
    criticality: input.criticality,
    // Left out: a new entry has none, an edited one keeps its own.
    codings: input.codings ?? before?.codings ?? [],
  });

  return {
    async list(actor: Actor, route: RouteName, personId: string): Promise<Allergy[]> {
      const person = await access.require(actor, personId, need('viewer', route));
      return (await repo.list(person.ownerId, person.profileId)).map(allergyAnswer);
    },

    /** Adds an entry at the end and sets has_allergies; a line that said none are known goes (it no longer holds). */
    async create(actor: Actor, route: RouteName, personId: string, input: AllergyInput): Promise<Allergy> {
      const person = await access.require(actor, personId, need('editor', route));
      const created = await repo.transaction(person.ownerId, async (q) => {
        const current = await q.list(person.ownerId, person.profileId);
        const kept: PlannedEntry[] = current.filter((e) => !saysNoAllergies(allergyLine(e))).map((e) => ({ id: e.id, values: e }));
        if (!(await writeEntries(q, person, current, [...kept, { id: null, values: valuesOf(input) }], true))) return null;
        return (await q.list(person.ownerId, person.profileId)).at(-1);
      });
      if (!created) throw badRequest(TOO_LONG);
      return allergyAnswer(created);
    },

    async update(actor: Actor, route: RouteName, personId: string, id: string, input: AllergyInput): Promise<Allergy> {
      const person = await editor(actor, route, personId);
      const updated = await repo.transaction(person.ownerId, async (q) => {
        const current = await q.list(person.ownerId, person.profileId);
        const before = current.find((e) => e.id === id);
        if (!before) throw notFound(ALLERGY_MESSAGES.notFound);
        const planned = current.map((e) => ({ id: e.id, values: e.id === id ? valuesOf(input, before) : e }));
        const state = await q.profileAllergies(person.ownerId, person.profileId);
        if (!(await writeEntries(q, person, current, planned, state?.flag ?? true))) return null;
        return (await q.list(person.ownerId, person.profileId)).find((e) => e.id === id);
      });
      if (!updated) throw badRequest(TOO_LONG);
      return allergyAnswer(updated);
    },

    /** Deleting the last entry clears has_allergies and the details text. */
    async remove(actor: Actor, route: RouteName, personId: string, id: string): Promise<void> {
      const person = await editor(actor, route, personId);
      await repo.transaction(person.ownerId, async (q) => {
        const current = await q.list(person.ownerId, person.profileId);
        if (!current.some((e) => e.id === id)) throw notFound(ALLERGY_MESSAGES.notFound);
        const planned = current.filter((e) => e.id !== id).map((e) => ({ id: e.id, values: e }));
        const state = await q.profileAllergies(person.ownerId, person.profileId);
        await writeEntries(q, person, current, planned, planned.length > 0 && (state?.flag ?? false));
      });
    },
  };
}

export type AllergiesService = ReturnType<typeof createAllergiesService>;

/**
 * What another feature's transaction does with a person's allergy entries — a profile save's, an
 * import's or a restore's, on its own open transaction `db`. The caller has decided whose person it is.
 */
export function allergyTransfer(db: Db) {
  const q = allergyQueries(db);
  return {
    /** One person's entries in their order. */
    entries: (ownerId: string, profileId: string): Promise<AllergyEntry[]> => q.list(ownerId, profileId),
    /** Every entry of the account, by person id. */
    accountEntries: (ownerId: string): Promise<Map<string, AllergyEntry[]>> => q.listAccount(ownerId),
    /**
     * The entries follow a details text just written (docs/decisions/0053): unchanged lines keep
     * their entries, new lines become entries (the one `incoming` offers for exactly that line, an
     * import's), entries whose line is gone go.
     */
    async followDetails(
      ownerId: string,
      profileId: string,
      details: string | null,
      incoming?: ReadonlyMap<string, AllergyValues>,
    ): Promise<void> {
      const current = await q.list(ownerId, profileId);
      await q.write(ownerId, profileId, current, entriesForDetails(current, details, incoming));
    },
    /** A restore's entries, as exported (the details text is restored beside them). */
    async replace(ownerId: string, profileId: string, planned: readonly PlannedEntry[]): Promise<void> {
      await q.write(ownerId, profileId, await q.list(ownerId, profileId), planned);
    },
  };
}
