import type pg from 'pg';
import { sql } from 'kysely';
import type { Db } from '../db/database';

// The SQL of the PostgreSQL notification bus (common/notification-bus.ts, DESIGN §10): LISTEN on the
// bus's own connection, NOTIFY through the pool. The channel is the bus's constant, never input.

/** Listens on `channel` on the dedicated client. */
export async function listenOn(client: pg.Client, channel: string): Promise<void> {
  await client.query(`LISTEN ${channel}`);
}

/** Sends `payload` to every listener of `channel` (pg_notify binds both as parameters). */
export async function notifyOn(db: Db, channel: string, payload: string): Promise<void> {
  await sql`SELECT pg_notify(${channel}, ${payload})`.execute(db);
}
