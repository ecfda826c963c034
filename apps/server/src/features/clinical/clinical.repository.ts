import { sql } from 'kysely';
import { CLINICAL_CAP } from '@kinchart/shared/clinical';
import type { Coding } from '@kinchart/shared/clinical';
import type { Db } from '../../db/database';
import { lockAccount } from '../../db/account-lock.repository';
import { newId, nowIso } from '../../lib/ids';
import type { ClinicalTable } from './clinical-kinds';

/** The columns every clinical table has; the rest of a row is its kind's own. */
export interface ClinicalRowBase {
  id: string;
  user_id: string;
  profile_id: string;
  codings: string;
  created_at: string;
  updated_at: string;
  [column: string]: unknown;
}

// The four tables share the columns these queries name (id, user_id, profile_id, codings,
// created_at, updated_at and their date column), so each query is written once against one of
// them; `from` only narrows kysely's table type for that shared part.
const from = (table: ClinicalTable) => table as 'immunizations';

/** One item to write: its kind's columns (see clinical-kinds.ts `columns`) and its codings. */
export interface ClinicalInsert {
  columns: Record<string, unknown>;
  codings: Coding[];
  /** A restored item keeps its own stamps (a Kinchart export's); otherwise now. */
  created_at?: string;
  updated_at?: string;
}

/**
 * Writes `items` for one person on `db` or an open transaction (an import's or a restore's), in
 * the caller's order; the caller holds the account lock and has checked CLINICAL_CAP.
 */
export async function insertClinicalItems(
  db: Db,
  table: ClinicalTable,
  ownerId: string,
  profileId: string,
  items: readonly ClinicalInsert[],
): Promise<string[]> {
  const ids: string[] = [];
  const now = nowIso();
  for (const item of items) {
    const id = newId();
    await db
      .insertInto(from(table))
      .values({
        ...item.columns,
        id,
        user_id: ownerId,
        profile_id: profileId,
        codings: JSON.stringify(item.codings),
        created_at: item.created_at ?? now,
        updated_at: item.updated_at ?? now,
      } as never)
      .execute();
    ids.push(id);
  }
  return ids;
}

/** Every item of `table` the account holds (or one person's), on `db` or an open transaction (what an import compares with). */
export async function accountClinicalItems(db: Db, table: ClinicalTable, ownerId: string, profileId?: string): Promise<ClinicalRowBase[]> {
  let query = db.selectFrom(from(table)).selectAll().where('user_id', '=', ownerId);
  if (profileId !== undefined) query = query.where('profile_id', '=', profileId);
  return query.execute();
}

/** How many items of `table` one person holds, on `db` or an open transaction. */
export async function countClinicalItems(db: Db, table: ClinicalTable, ownerId: string, profileId: string): Promise<number> {
  const { count } = await db
    .selectFrom(from(table))
    .select((eb) => eb.fn.countAll().as('count'))
    .where('user_id', '=', ownerId)
    .where('profile_id', '=', profileId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Clinical items of one person (DESIGN §12); callers have asked the access function first. */
export function createClinicalRepository(db: Db) {
  return {
    /** Newest first by the kind's date (undated last), then by when they were added. */
    async list(table: ClinicalTable, dateColumn: string, ownerId: string, profileId: string): Promise<ClinicalRowBase[]> {
      const rows = await db
        .selectFrom(from(table))
        .selectAll()
        .where('user_id', '=', ownerId)
        .where('profile_id', '=', profileId)
        .orderBy(sql`case when ${sql.ref(dateColumn)} is null then 1 else 0 end`)
        .orderBy(sql.ref(dateColumn), 'desc')
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
      return rows;
    },

    async find(table: ClinicalTable, id: string): Promise<ClinicalRowBase | undefined> {
      const row = await db.selectFrom(from(table)).selectAll().where('id', '=', id).executeTakeFirst();
      return row;
    },

    /** Adds one item; null when the person already holds CLINICAL_CAP of this kind. */
    insert(
      table: ClinicalTable,
      ownerId: string,
      profileId: string,
      columns: Record<string, unknown>,
      codings: Coding[],
    ): Promise<ClinicalRowBase | null> {
      return db.transaction().execute(async (trx) => {
        // The account's lock makes count-then-insert one step: parallel adds cannot pass the cap.
        await lockAccount(trx, ownerId);
        if ((await countClinicalItems(trx, table, ownerId, profileId)) >= CLINICAL_CAP) return null;
        const now = nowIso();
        const row = await trx
          .insertInto(from(table))
          .values({
            ...(columns as object),
            id: newId(),
            user_id: ownerId,
            profile_id: profileId,
            codings: JSON.stringify(codings),
            created_at: now,
            updated_at: now,
          } as never)
          .returningAll()
          .executeTakeFirstOrThrow();
        return row;
      });
    },

    /** Replaces an item's values (and its codings when given); undefined when it is not the owner's. */
    async update(
      table: ClinicalTable,
      ownerId: string,
      id: string,
      columns: Record<string, unknown>,
      codings: Coding[] | undefined,
    ): Promise<ClinicalRowBase | undefined> {
      const row = await db
        .updateTable(from(table))
        .set({
          ...(columns as object),
          ...(codings === undefined ? {} : { codings: JSON.stringify(codings) }),
          updated_at: nowIso(),
        } as never)
        .where('id', '=', id)
        .where('user_id', '=', ownerId)
        .returningAll()
        .executeTakeFirst();
      return row;
    },

    async delete(table: ClinicalTable, ownerId: string, id: string): Promise<boolean> {
      const result = await db.deleteFrom(from(table)).where('id', '=', id).where('user_id', '=', ownerId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** The name and date of birth a printed record is headed with. */
    async person(ownerId: string, profileId: string): Promise<{ name: string | null; date_of_birth: string | null } | undefined> {
      return db
        .selectFrom('profiles')
        .select(['name', 'date_of_birth'])
        .where('id', '=', profileId)
        .where('user_id', '=', ownerId)
        .executeTakeFirst();
    },
  };
}
