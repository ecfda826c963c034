import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** The health probe's one statement: resolves once the database answers. */
export async function databaseAnswers(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
