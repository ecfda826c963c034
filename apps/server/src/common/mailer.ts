import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';

// DESIGN §1: email goes out only with SMTP_URL set, through one transport for the whole app
// (emergency notifications, password reset links).

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /**
   * Queues the email (or the work that composes it) and returns at once. A failure is logged as
   * `failure.message` with its fields and the SMTP codes only — never the address, the text or the
   * server's reply (which may quote the address).
   */
  send(mail: OutgoingMail | (() => Promise<OutgoingMail | undefined>), failure: { message: string; fields?: Record<string, string> }): void;
  /** Resolves once every queued email has been handed over (or has failed). */
  settled(): Promise<void>;
  close(): void;
}

/** The mailer, or undefined when SMTP_URL is unset (said once, at start-up). */
export function createMailer(deps: { mail: Config['mail']; log: FastifyBaseLogger }): Mailer | undefined {
  if (!deps.mail) {
    deps.log.info('email is off: SMTP_URL is not set');
    return undefined;
  }
  const { from } = deps.mail;
  const transport = nodemailer.createTransport(deps.mail.smtpUrl);
  const inFlight = new Set<Promise<void>>();

  async function deliver(mail: OutgoingMail | (() => Promise<OutgoingMail | undefined>)): Promise<void> {
    const message = typeof mail === 'function' ? await mail() : mail;
    if (message) await transport.sendMail({ from, ...message });
  }

  return {
    send(mail, failure) {
      const sending = deliver(mail)
        .catch((error: unknown) => {
          const e = error as { code?: unknown; responseCode?: unknown };
          deps.log.warn(
            {
              code: typeof e?.code === 'string' ? e.code : undefined,
              responseCode: typeof e?.responseCode === 'number' ? e.responseCode : undefined,
              ...failure.fields,
            },
            failure.message,
          );
        })
        .finally(() => inFlight.delete(sending));
      inFlight.add(sending);
    },
    async settled() {
      await Promise.all([...inFlight]);
    },
    close: () => transport.close(),
  };
}
