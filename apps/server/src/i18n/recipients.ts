import type { Db } from '../db/database';
import { languageOfEmail, languageOfUser } from './recipients.repository';
import { translator, type Translator } from './translator';

// Issue 35: whose language a text is written in — its recipient's (users.language), looked up as
// the text is composed, so a change of language applies to the next email, push or notice.

/** The translator of an account (English for one that never chose, or is gone). */
export async function translatorOfUser(db: Db, userId: string): Promise<Translator> {
  return translator(await languageOfUser(db, userId));
}

/** The translator of the account that uses `email`, if one does. */
export async function translatorOfEmail(db: Db, email: string): Promise<Translator | undefined> {
  const language = await languageOfEmail(db, email);
  return language === undefined ? undefined : translator(language);
}
