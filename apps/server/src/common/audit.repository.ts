import type { Insertable } from 'kysely';
import type { Db } from '../db/database';
import type { AuditEventsTable } from '../db/schema';

// The SQL of the audit trail (common/audit.ts says what an event holds).

export type AuditRow = Insertable<AuditEventsTable>;

/** Writes the rows in one statement, on `db` or a transaction. */
export async function insertAuditRows(db: Db, rows: readonly AuditRow[]): Promise<void> {
  await db
    .insertInto('audit_events')
    .values([...rows])
    .execute();
}
