import { UNKNOWN_DEVICE, describeDevice } from '@kinchart/shared/describe-device';
import type { Db } from '../../db/database';
import type { Mailer } from '../../common/mailer';
import { randomToken, sha256Hex } from '../../lib/ids';
import { createKnownBrowsersRepository } from './known-browsers.repository';
import { mailDateTime } from '../../i18n/formats';
import { translatorOfUser } from '../../i18n/recipients';
import type { Translator } from '../../i18n/translator';

// An email on every sign-in from a new browser (DESIGN §1 SMTP_URL, §5; docs/decisions/0028).
// Each browser holds a random token in a long-lived cookie; the account keeps the token's SHA-256
// once it has signed in there. Signing in from a browser the account has not seen sends the owner
// an email — except for the account's very first browser, which is where it was made.

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface SignInPlace {
  ip: string;
  userAgent: string | null;
}

/**
 * The browser in words a person reads ("Firefox on Windows"), from the user agent: only the fixed
 * names of describeDevice come out, so none of the caller's own text reaches the email.
 */
function browserLine(userAgent: string | null, tr: Translator): string {
  const name = describeDevice(userAgent);
  return name === UNKNOWN_DEVICE ? tr.t('email.new_sign_in.unknown_browser') : name;
}

export function createKnownBrowsers(deps: { db: Db; mailer: Mailer | undefined; publicUrl: string }) {
  const repo = createKnownBrowsersRepository(deps.db);

  // In the account's language (issue 35).
  async function notify(user: { id: string; email: string }, place: SignInPlace, at: Date) {
    deps.mailer?.send(
      async () => {
        const tr = await translatorOfUser(deps.db, user.id);
        return {
          to: user.email,
          subject: tr.t('email.new_sign_in.subject'),
          text: tr.t('email.new_sign_in.text', {
            time: mailDateTime(at, tr.language),
            browser: browserLine(place.userAgent, tr),
            address: place.ip,
            url: `${deps.publicUrl}/settings?tab=account`,
          }),
        };
      },
      { message: 'new sign-in email failed' },
    );
  }

  return {
    /**
     * After a sign-in: recognises the browser by its cookie's token, or makes it known and tells the
     * owner. Answers the token the browser keeps (its own when it had a well-formed one).
     */
    async signedIn(
      user: { id: string; email: string },
      browserToken: string | undefined,
      place: SignInPlace,
      at = new Date(),
    ): Promise<string> {
      const token = browserToken && TOKEN_PATTERN.test(browserToken) ? browserToken : randomToken();
      const hash = sha256Hex(token);
      if (await repo.touch(user.id, hash, at)) return token;

      const before = await repo.knowsAny(user.id);
      const inserted = await repo.add(user.id, hash, at);
      // Two sign-ins of one new browser racing: one email. The account's first browser: none.
      if (inserted && before) await notify(user, place, at);
      return token;
    },
  };
}
export type KnownBrowsers = ReturnType<typeof createKnownBrowsers>;
