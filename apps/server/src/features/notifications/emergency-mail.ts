import { z } from 'zod';
import { MAX_PIN_STREAK, MAX_PIN_TOTAL, PIN_LOCK_MINUTES } from '@kinchart/shared/emergency';
import type { Db } from '../../db/database';
import type { Mailer } from '../../common/mailer';
import { accountEmail } from './emergency-mail.repository';
import { mailMinute } from '../../i18n/formats';
import { translator, type Translator } from '../../i18n/translator';

// DESIGN §1 and §7: with SMTP_URL set, emergency views, PIN locks and PIN deactivations are also
// emailed to the account's address — the person and the time only: no medical data, no link, no
// share id. Sending is fire-and-forget, so it never delays or fails the emergency answer. Views of
// one code are coalesced (issue 30): the first is emailed at once, then at most one email per 15
// minutes counts the views since (features/emergency/access-alerts.ts decides when).

export type EmergencyMailEvent = 'access' | 'essentials' | 'locked' | 'disabled';

export interface EmergencyMailMessage {
  userId: string;
  kind: 'self' | 'family';
  /** The family member's profile name; ignored for one's own code ("you"). */
  personName: string | null;
  event: EmergencyMailEvent;
  /** A coalesced email: `views` more views of the code since the last email, sent at `since`. */
  repeat?: { views: number; since: Date };
}

export interface EmergencyMail {
  /** Queues the email and returns at once; failures are logged without address or content. */
  send(message: EmergencyMailMessage): void;
}

/**
 * The second wall (STYLE: privacy boundary as a list): the wording above takes only the person's
 * name, the kind of event and the time; this checks what leaves holds no link of any kind.
 */
const noLink = (text: string) => !/:\/\/|www\.|\/emergency\//i.test(text);
const emergencyEmailSchema = z.strictObject({
  subject: z.string().max(120).refine(noLink),
  text: z.string().max(2000).refine(noLink),
});

/** Subject and plain text of one email, in its recipient's language (exported for tests of the wording). */
export function composeEmergencyMail(
  message: Pick<EmergencyMailMessage, 'kind' | 'personName' | 'event' | 'repeat'>,
  at: Date,
  tr: Translator = translator('en'),
) {
  const own = message.kind === 'self' ? 'yes' : 'no';
  const name = own === 'yes' ? '' : message.personName?.trim() || tr.t('email.emergency.family_member');
  const time = mailMinute(at, tr.language);
  const whose = { own, name, time };
  const lines: Record<EmergencyMailEvent, { subject: string; text: string }> = {
    access: { subject: tr.t('email.emergency.subject.opened'), text: tr.t('email.emergency.access', whose) },
    essentials: { subject: tr.t('email.emergency.subject.opened'), text: tr.t('email.emergency.essentials', whose) },
    locked: {
      subject: tr.t('email.emergency.subject.locked'),
      text: tr.t('email.emergency.locked', { ...whose, streak: MAX_PIN_STREAK, minutes: PIN_LOCK_MINUTES }),
    },
    disabled: {
      subject: tr.t('email.emergency.subject.disabled'),
      text: tr.t('email.emergency.disabled', { ...whose, total: MAX_PIN_TOTAL }),
    },
  };
  const repeat = message.repeat && (message.event === 'access' || message.event === 'essentials') ? message.repeat : undefined;
  const { subject, text } = repeat
    ? {
        subject: tr.t('email.emergency.subject.repeat', { views: repeat.views }),
        text: tr.t('email.emergency.repeat', { ...whose, views: repeat.views, since: mailMinute(repeat.since, tr.language) }),
      }
    : lines[message.event];
  return emergencyEmailSchema.parse({ subject, text: `${text}\n\n${tr.t('email.emergency.footer')}` });
}

/** Emergency emails through the app's mailer, or undefined when email is off (SMTP_URL unset). */
export function createEmergencyMail(deps: { db: Db; mailer: Mailer | undefined }): EmergencyMail | undefined {
  const { mailer } = deps;
  if (!mailer) return undefined;
  return {
    send(message) {
      const at = new Date();
      mailer.send(
        async () => {
          const account = await accountEmail(deps.db, message.userId);
          return account ? { to: account.email, ...composeEmergencyMail(message, at, translator(account.language)) } : undefined;
        },
        { message: 'emergency notification email failed', fields: { event: message.event === 'essentials' ? 'access' : message.event } },
      );
    },
  };
}
