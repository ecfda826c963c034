import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// A real SMTP server on loopback that keeps what it receives, for the emails the app sends
// (DESIGN §1: SMTP_URL).

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  headers: Record<string, string>;
  text: string;
}

function parse(raw: string, from: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.slice(split + 4);
  if (/quoted-printable/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  } else if (/base64/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = Buffer.from(body, 'base64').toString('utf8');
  }
  return { from, to, raw, headers, text: body };
}

/** Keeps the emails of one subject, for `messagesTo`. */
export const withSubject = (subject: string) => (mail: ReceivedMail) => mail.headers.subject === subject;

export interface LoopbackSmtp {
  /** SMTP_URL for the app. */
  url: string;
  received: ReceivedMail[];
  /**
   * Waits until `address` has received `count` emails (those `only` keeps, when given: a sign-up
   * also sends its confirmation link), woken by each arrival and failing after 10 s; answers them all.
   */
  messagesTo(address: string, count: number, only?: (mail: ReceivedMail) => boolean): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startLoopbackSmtp(): Promise<LoopbackSmtp> {
  const received: ReceivedMail[] = [];
  // Told of each message as it is kept, so a test waits for the message itself, not for time.
  const arrivals = new EventEmitter();
  arrivals.setMaxListeners(0);
  const smtp = new SMTPServer({
    secure: false,
    hideSTARTTLS: true,
    allowInsecureAuth: true,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push(
          parse(
            Buffer.concat(chunks).toString('utf8'),
            from,
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        arrivals.emit('mail');
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return {
    url: `smtp://kinchart:secret@127.0.0.1:${port}`,
    received,
    messagesTo(address, count, only = () => true) {
      const mine = () => received.filter((m) => m.to.includes(address) && only(m));
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = mine();
          if (found.length < count) return;
          done();
          resolve(found);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`expected ${count} emails, got ${mine().length}`));
        }, 10_000);
        const done = () => {
          clearTimeout(timer);
          arrivals.off('mail', check);
        };
        arrivals.on('mail', check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
