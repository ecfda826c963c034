import type { Db } from '../db/database';

// The SQL of a recipient's language (recipients.ts): users.language as stored, read as a text is composed.

/** The account's language as stored (null: never chosen); undefined when the account is gone. */
export async function languageOfUser(db: Db, userId: string): Promise<string | null | undefined> {
  return (await db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst())?.language;
}

/** The language of the account that uses `email`; undefined when none does. */
export async function languageOfEmail(db: Db, email: string): Promise<string | null | undefined> {
  return (await db.selectFrom('users').select('language').where('email', '=', email).executeTakeFirst())?.language;
}
