import type { Db } from '../../db/database';
import { lockAccount } from '../../db/account-lock.repository';
import { fromFlag, toFlag } from '../../lib/flags';
import { newId, nowIso } from '../../lib/ids';
import type { AllergyEntry, AllergyValues, PlannedEntry } from './allergy-entries';
import { entryOfRow } from './allergy-entries';

// Issue 34, docs/decisions/0053: a person's allergy entries and the profile's allergies flag and
// details text, which are written together. Every statement carries the owner's id and the person's.

const sameValues = (a: AllergyValues, b: AllergyValues) =>
  a.substance === b.substance &&
  a.severity === b.severity &&
  a.criticality === b.criticality &&
  JSON.stringify(a.reactions) === JSON.stringify(b.reactions) &&
  JSON.stringify(a.codings) === JSON.stringify(b.codings);

const columnsOf = (v: AllergyValues) => ({
  substance: v.substance,
  reactions: JSON.stringify(v.reactions),
  severity: v.severity,
  criticality: v.criticality,
  codings: JSON.stringify(v.codings.map((c) => ({ system: c.system, code: c.code, display: c.display }))),
});

/** The queries on `db` or an open transaction (an import's, a restore's, a profile save's). */
export function allergyQueries(db: Db) {
  return {
    /** One person's entries in their order. */
    async list(ownerId: string, profileId: string): Promise<AllergyEntry[]> {
      const rows = await db
        .selectFrom('allergies')
        .selectAll()
        .where('user_id', '=', ownerId)
        .where('profile_id', '=', profileId)
        .orderBy('position')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(entryOfRow);
    },

    /** Every entry the account holds, by person (what an export writes). */
    async listAccount(ownerId: string): Promise<Map<string, AllergyEntry[]>> {
      const rows = await db
        .selectFrom('allergies')
        .selectAll()
        .where('user_id', '=', ownerId)
        .orderBy('profile_id')
        .orderBy('position')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const byPerson = new Map<string, AllergyEntry[]>();
      for (const row of rows) byPerson.set(row.profile_id, [...(byPerson.get(row.profile_id) ?? []), entryOfRow(row)]);
      return byPerson;
    },

    /**
     * Makes the person's entries `planned`, in that order: kept entries (by id) get their place and
     * values, the others of `current` are deleted, new ones are added.
     */
    async write(ownerId: string, profileId: string, current: readonly AllergyEntry[], planned: readonly PlannedEntry[]): Promise<void> {
      const now = nowIso();
      const kept = new Set(planned.flatMap((p) => (p.id ? [p.id] : [])));
      const gone = current.filter((e) => !kept.has(e.id)).map((e) => e.id);
      if (gone.length > 0) {
        await db
          .deleteFrom('allergies')
          .where('user_id', '=', ownerId)
          .where('profile_id', '=', profileId)
          .where('id', 'in', gone)
          .execute();
      }
      const byId = new Map(current.map((e) => [e.id, e]));
      for (const [position, p] of planned.entries()) {
        const before = p.id ? byId.get(p.id) : undefined;
        if (before) {
          const changed = !sameValues(before, p.values);
          if (!changed && before.position === position) continue;
          await db
            .updateTable('allergies')
            .set({ ...columnsOf(p.values), position, ...(changed ? { updated_at: now } : {}) })
            .where('id', '=', before.id)
            .where('user_id', '=', ownerId)
            .where('profile_id', '=', profileId)
            .execute();
          continue;
        }
        await db
          .insertInto('allergies')
          .values({
            id: newId(),
            user_id: ownerId,
            profile_id: profileId,
            ...columnsOf(p.values),
            position,
            created_at: p.stamps?.created_at ?? now,
            updated_at: p.stamps?.updated_at ?? now,
          })
          .execute();
      }
    },

    /** The profile's allergies flag and details text; undefined when the person is not the owner's. */
    async profileAllergies(ownerId: string, profileId: string): Promise<{ flag: boolean; details: string | null } | undefined> {
      const row = await db
        .selectFrom('profiles')
        .select(['has_allergies', 'allergy_details'])
        .where('id', '=', profileId)
        .where('user_id', '=', ownerId)
        .executeTakeFirst();
      return row && { flag: fromFlag(row.has_allergies), details: row.allergy_details };
    },

    /** Writes the flag and the details text the entries make (the profile's updated_at moves: the emergency page's "last updated"). */
    async setProfileAllergies(ownerId: string, profileId: string, flag: boolean, details: string | null): Promise<void> {
      await db
        .updateTable('profiles')
        .set({ has_allergies: toFlag(flag), allergy_details: details, updated_at: nowIso() })
        .where('id', '=', profileId)
        .where('user_id', '=', ownerId)
        .execute();
    },
  };
}
export type AllergyQueries = ReturnType<typeof allergyQueries>;

export function createAllergiesRepository(db: Db) {
  return {
    ...allergyQueries(db),
    /** Runs `fn` in one transaction holding the account's lock: all of it is saved, or none. */
    transaction<T>(ownerId: string, fn: (q: AllergyQueries) => Promise<T>): Promise<T> {
      return db.transaction().execute(async (trx) => {
        await lockAccount(trx, ownerId);
        return fn(allergyQueries(trx));
      });
    },
  };
}
