import type { Insertable, Transaction } from 'kysely';
import type { Db } from '../db/database';
import type { Database, NotificationsTable } from '../db/schema';

// The SQL of telling an owner something (common/notify.ts shapes the row and publishes it). The
// notifications feature reads and updates these rows through its own repository.

export type NotificationRow = Insertable<NotificationsTable>;
type Executor = Db | Transaction<Database>;

/** Inserts the row; when its dedupe key was already used, inserts nothing and answers false. */
export async function insertNotification(db: Executor, row: NotificationRow): Promise<boolean> {
  if (!row.dedupe_key) {
    await db.insertInto('notifications').values(row).execute();
    return true;
  }
  const res = await db
    .insertInto('notifications')
    .values(row)
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Inserts the rows, 500 a statement, skipping those whose dedupe key was already used; answers those inserted. */
export async function insertNotifications(db: Executor, rows: readonly NotificationRow[]): Promise<{ id: string; user_id: string }[]> {
  const added: { id: string; user_id: string }[] = [];
  for (let from = 0; from < rows.length; from += 500) {
    added.push(
      ...(await db
        .insertInto('notifications')
        .values(rows.slice(from, from + 500))
        .onConflict((oc) => oc.column('dedupe_key').doNothing())
        .returning(['id', 'user_id'])
        .execute()),
    );
  }
  return added;
}

/** New data for the owner's notification, unread again; false when it is gone or hidden (it stays hidden). */
export async function reviseNotification(db: Executor, userId: string, id: string, data: string): Promise<boolean> {
  const res = await db
    .updateTable('notifications')
    .set({ data, is_read: 0 })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('is_hidden', '=', 0)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
