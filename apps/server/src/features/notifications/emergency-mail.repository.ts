import type { Db } from '../../db/database';

// The SQL of the emergency emails (emergency-mail.ts): where the account's email goes, read when the
// email is sent.

/** The account's email address; undefined when the account is gone. */
export async function accountEmail(db: Db, userId: string): Promise<string | undefined> {
  const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  return user?.email;
}
