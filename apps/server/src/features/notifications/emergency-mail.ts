import { z } from 'zod';
import { MAX_PIN_STREAK, MAX_PIN_TOTAL, PIN_LOCK_MINUTES } from '@kinchart/shared/emergency';
import type { Db } from '../../db/database';
import type { Mailer } from '../../common/mailer';
import { accountEmail } from './emergency-mail.repository';

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

/** "2026-11-24 03:58 UTC": the minute, in one zone every reader can place. */
export function mailTime(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
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

/** Subject and plain text of one email (exported for tests of the wording). */
export function composeEmergencyMail(message: Pick<EmergencyMailMessage, 'kind' | 'personName' | 'event' | 'repeat'>, at: Date) {
  const own = message.kind === 'self';
  const person = own ? 'you' : message.personName?.trim() || 'your family member';
  const whose = own ? 'your' : `${person}'s`;
  const time = mailTime(at);
  const lines: Record<EmergencyMailEvent, { subject: string; text: string }> = {
    access: {
      subject: 'Kinchart: emergency information opened',
      text: `Someone opened ${whose} emergency information with the correct PIN on ${time}.`,
    },
    essentials: {
      subject: 'Kinchart: emergency information opened',
      text: `Someone viewed ${whose} emergency essentials, shown without the PIN as you chose, on ${time}.`,
    },
    locked: {
      subject: 'Kinchart: emergency QR code locked',
      text: `${MAX_PIN_STREAK} wrong PINs in a row were entered for ${whose} emergency QR code on ${time}. It is locked for ${PIN_LOCK_MINUTES} minutes.`,
    },
    disabled: {
      subject: 'Kinchart: emergency QR code deactivated',
      text: `${MAX_PIN_TOTAL} wrong PINs were entered for ${whose} emergency QR code, so it was deactivated on ${time}. Re-activate it in Kinchart's Settings when you are ready.`,
    },
  };
  const repeat = message.repeat && (message.event === 'access' || message.event === 'essentials') ? message.repeat : undefined;
  const times = repeat ? `${repeat.views} more ${repeat.views === 1 ? 'time' : 'times'}` : '';
  const { subject, text } = repeat
    ? {
        subject: `Kinchart: emergency information opened ${times}`,
        text: `Since ${mailTime(repeat.since)}, ${whose} emergency information was opened ${times} (counted up to ${time}).`,
      }
    : lines[message.event];
  return emergencyEmailSchema.parse({
    subject,
    text: `${text}\n\nSign in to Kinchart to see your notifications.\n\nPIN locks and deactivations of codes on your account are emailed at once. Views of a code are emailed at once, then gathered into at most one email every 15 minutes.\n`,
  });
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
          const to = await accountEmail(deps.db, message.userId);
          return to !== undefined ? { to, ...composeEmergencyMail(message, at) } : undefined;
        },
        { message: 'emergency notification email failed', fields: { event: message.event === 'essentials' ? 'access' : message.event } },
      );
    },
  };
}
