import type { Db } from '../db/database';
import { translator, type Translator } from './translator';

// Issue 35: whose language a text is written in — its recipient's (users.language), looked up as
// the text is composed, so a change of language applies to the next email, push or notice.

/** The translator of an account (English for one that never chose, or is gone). */
export async function translatorOfUser(db: Db, userId: string): Promise<Translator> {
  const row = await db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst();
  return translator(row?.language);
}

/** The translators of many accounts, by id, in one statement. */
export async function translatorsOfUsers(db: Db, userIds: readonly string[]): Promise<Map<string, Translator>> {
  const unique = [...new Set(userIds)];
  const out = new Map<string, Translator>();
  for (let from = 0; from < unique.length; from += 500) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'language'])
      .where('id', 'in', unique.slice(from, from + 500))
      .execute();
    for (const row of rows) out.set(row.id, translator(row.language));
  }
  return out;
}

/** The translator of the account that uses `email`, if one does. */
export async function translatorOfEmail(db: Db, email: string): Promise<Translator | undefined> {
  const row = await db.selectFrom('users').select('language').where('email', '=', email).executeTakeFirst();
  return row ? translator(row.language) : undefined;
}
