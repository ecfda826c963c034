import { watch } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

// The emails the server sent during the run: e2e/run.mjs gives it a loopback SMTP server
// (SMTP_URL) that keeps each message as a file in E2E_MAILBOX.

export interface Mail {
  to: string[];
  headers: Record<string, string>;
  /** The plain-text body, transfer encoding undone. */
  text: string;
}

function mailboxDir(): string {
  const dir = process.env.E2E_MAILBOX;
  if (!dir) throw new Error('E2E_MAILBOX is not set: run the browser tests with `npm run test:e2e` (e2e/run.mjs).');
  return dir;
}

function parse(raw: string): Mail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let text = raw.slice(split + 4);
  const encoding = headers['content-transfer-encoding'] ?? '';
  if (/quoted-printable/i.test(encoding)) {
    text = Buffer.from(
      text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  } else if (/base64/i.test(encoding)) {
    text = Buffer.from(text, 'base64').toString('utf8');
  }
  return { to: (headers['x-envelope-to'] ?? '').split(','), headers, text };
}

/** Every email sent to `address` so far, oldest first. */
export async function mailsTo(address: string): Promise<Mail[]> {
  const dir = mailboxDir();
  const files = (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
  const mails = await Promise.all(files.map(async (f) => parse(await readFile(path.join(dir, f), 'utf8'))));
  return mails.filter((m) => m.to.includes(address));
}

/**
 * Waits (up to `timeout` ms) for the `count`-th email to `address` that `matches` — a sign-up sends
 * its confirmation link first, so a test names the email it waits for — and answers it. Woken by
 * the mailbox folder's own changes (a message lands there by a rename), not by a clock.
 */
export async function waitForMailMatching(address: string, matches: (mail: Mail) => boolean, count = 1, timeout = 15_000): Promise<Mail> {
  let wake = () => {};
  let late = false;
  const watcher = watch(mailboxDir(), () => wake());
  const timer = setTimeout(() => {
    late = true;
    wake();
  }, timeout);
  try {
    for (;;) {
      // Listening before reading: a message landing while the folder is read wakes the next round.
      const changed = new Promise<void>((resolve) => (wake = resolve));
      const mails = (await mailsTo(address)).filter(matches);
      if (mails.length >= count) return mails[count - 1]!;
      if (late) throw new Error(`Expected ${count} matching email(s) to ${address} within ${timeout} ms, got ${mails.length}.`);
      await changed;
    }
  } finally {
    clearTimeout(timer);
    watcher.close();
  }
}

/** The `count`-th email to `address`, of `subject` only when given (an ASCII subject, compared as sent). */
export function waitForMail(address: string, count = 1, timeout = 15_000, subject?: string): Promise<Mail> {
  return waitForMailMatching(address, (m) => subject === undefined || m.headers.subject === subject, count, timeout);
}

export const CONFIRM_SUBJECT = 'Kinchart: confirm your email address';

/** The link of the `count`-th confirmation email to `address` (docs/decisions/0030). */
export async function confirmationLink(address: string, count = 1): Promise<string> {
  const mail = await waitForMail(address, count, 15_000, CONFIRM_SUBJECT);
  const link = /https?:\/\/\S+\/verify-email\?token=[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
  if (!link) throw new Error(`No confirmation link in: ${mail.text}`);
  return link;
}
