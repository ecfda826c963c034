import type { Db } from '../../db/database';

// The SQL of the emergency emails (emergency-mail.ts): where the account's email goes, read when the
// email is sent.

/** The account's email address and language (issue 35); undefined when the account is gone. */
export async function accountEmail(db: Db, userId: string): Promise<{ email: string; language: string | null } | undefined> {
  return db.selectFrom('users').select(['email', 'language']).where('id', '=', userId).executeTakeFirst();
}
