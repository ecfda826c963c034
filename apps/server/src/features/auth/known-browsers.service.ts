import { UNKNOWN_DEVICE, describeDevice } from '@kinchart/shared/describe-device';
import type { Db } from '../../db/database';
import type { Mailer } from '../../common/mailer';
import { newId, nowIso, randomToken, sha256Hex } from '../../lib/ids';

// An email on every sign-in from a new browser (DESIGN §1 SMTP_URL, §5; docs/decisions/0028).
// Each browser holds a random token in a long-lived cookie; the account keeps the token's SHA-256
// once it has signed in there. Signing in from a browser the account has not seen sends the owner
// an email — except for the account's very first browser, which is where it was made.

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const SUBJECT = 'New sign-in to your Kinchart account';

export interface SignInPlace {
  ip: string;
  userAgent: string | null;
}

/**
 * The browser in words a person reads ("Firefox on Windows"), from the user agent: only the fixed
 * names of describeDevice come out, so none of the caller's own text reaches the email.
 */
function browserLine(userAgent: string | null): string {
  const name = describeDevice(userAgent);
  return name === UNKNOWN_DEVICE ? 'Unknown browser' : name;
}

export function createKnownBrowsers(deps: { db: Db; mailer: Mailer | undefined; publicUrl: string }) {
  const { db } = deps;

  async function notify(email: string, place: SignInPlace, at: Date) {
    deps.mailer?.send(
      {
        to: email,
        subject: SUBJECT,
        text: [
          'Your Kinchart account was just signed in from a browser it has not been used in before.',
          '',
          `When: ${at.toUTCString()}`,
          `Browser: ${browserLine(place.userAgent)}`,
          `Address: ${place.ip}`,
          '',
          'If this was you, there is nothing to do.',
          'If it was not, change your password and sign out the sessions you do not recognise:',
          `${deps.publicUrl}/settings?tab=account`,
        ].join('\n'),
      },
      { message: 'new sign-in email failed' },
    );
  }

  return {
    /**
     * After a sign-in: recognises the browser by its cookie's token, or makes it known and tells the
     * owner. Answers the token the browser keeps (its own when it had a well-formed one).
     */
    async signedIn(user: { id: string; email: string }, browserToken: string | undefined, place: SignInPlace, at = new Date()): Promise<string> {
      const token = browserToken && TOKEN_PATTERN.test(browserToken) ? browserToken : randomToken();
      const hash = sha256Hex(token);
      const seen = await db
        .updateTable('known_browsers')
        .set({ last_seen_at: nowIso(at) })
        .where('user_id', '=', user.id)
        .where('token_hash', '=', hash)
        .executeTakeFirst();
      if (Number(seen.numUpdatedRows) > 0) return token;

      const before = await db.selectFrom('known_browsers').select('id').where('user_id', '=', user.id).limit(1).executeTakeFirst();
      const inserted = await db
        .insertInto('known_browsers')
        .values({ id: newId(), user_id: user.id, token_hash: hash, created_at: nowIso(at), last_seen_at: nowIso(at) })
        .onConflict((oc) => oc.columns(['user_id', 'token_hash']).doNothing())
        .executeTakeFirst();
      // Two sign-ins of one new browser racing: one email. The account's first browser: none.
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 && before) await notify(user.email, place, at);
      return token;
    },
  };
}
export type KnownBrowsers = ReturnType<typeof createKnownBrowsers>;
