import type { z } from 'zod';
import type { pushSubscriptionInputSchema } from '@kinchart/shared/care';
import { HttpError, badRequest, notFound } from '../../lib/http-errors';
import type { PushSender } from './push-sender';
import { newId, nowIso } from '../../lib/ids';
import type { ReminderRepository } from './reminders.repository';
import { translator, type Translator } from '../../i18n/translator';
import { UNKNOWN_DEVICE, describeDevice } from '@kinchart/shared/describe-device';

// Web Push subscriptions (issue 32, RFC 8030): the endpoint is a URL the browser — that is, the
// client — chose, so the server only ever keeps (and sends to) https endpoints on the hosts
// PUSH_ALLOWED_HOSTS lists: nothing reaches into the server's own network.

export type PushSubscriptionService = ReturnType<typeof createPushSubscriptionService>;

/** A PUSH_ALLOWED_HOSTS entry as host and port ('' when it names none); an IPv6 address in brackets. */
function splitEntry(entry: string): { name: string; port: string } {
  const close = entry.startsWith('[') ? entry.indexOf(']') : -1;
  const colon = entry.lastIndexOf(':');
  if (close >= 0) return colon > close ? { name: entry.slice(0, colon), port: entry.slice(colon + 1) } : { name: entry, port: '' };
  return colon > 0 ? { name: entry.slice(0, colon), port: entry.slice(colon + 1) } : { name: entry, port: '' };
}

/**
 * True when `url` may receive pushes: https, no user or password, and its host listed. An entry
 * "host" matches that host on any port; "host:port" only on that port (443 is the https default,
 * so "host:443" matches "https://host/…"); "*.example.com" any subdomain of example.com (not
 * example.com itself), on any port, or only on the port it names.
 */
export function pushEndpointAllowed(url: string, allowedHosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password) return false;
  const host = parsed.hostname.toLowerCase();
  const port = parsed.port || '443';
  return allowedHosts.some((entry) => {
    const { name, port: entryPort } = splitEntry(entry.trim().toLowerCase());
    if (entryPort && entryPort !== port) return false;
    if (name.startsWith('*.')) {
      const suffix = name.slice(1);
      return host.endsWith(suffix) && host.length > suffix.length;
    }
    return host === name;
  });
}

/** What a test notification says (it names nobody and nothing), in the account's language. */
const testPush = (tr: Translator) =>
  JSON.stringify({
    title: 'Kinchart',
    body: tr.t('push.test.body'),
    tag: 'kinchart-test',
    url: '/settings',
  });

export function createPushSubscriptionService(deps: { repo: ReminderRepository; allowedHosts: readonly string[]; push: PushSender }) {
  const { repo, allowedHosts } = deps;
  return {
    /**
     * Keeps the browser's subscription; the same endpoint again updates its keys. The session it
     * came from is written with it (ending that session on purpose removes it), and the browser in
     * plain words from the User-Agent (describeDevice: fixed names only, nothing else of the header).
     */
    async subscribe(
      from: { userId: string; sessionId: string; userAgent: string | null },
      input: z.infer<typeof pushSubscriptionInputSchema>,
    ): Promise<{ id: string }> {
      const { userId } = from;
      if (!pushEndpointAllowed(input.endpoint, allowedHosts)) throw badRequest('endpoint: must be an https URL of a browser push service');
      const p256dh = Buffer.from(input.keys.p256dh, 'base64url');
      // An uncompressed P-256 point (RFC 8291 §3.1) and 16 bytes of authentication secret.
      if (p256dh.length !== 65 || p256dh[0] !== 4) throw badRequest('keys.p256dh: must be a P-256 public key (65 bytes, base64url)');
      if (Buffer.from(input.keys.auth, 'base64url').length !== 16) throw badRequest('keys.auth: must be 16 bytes, base64url');
      const id = await repo.saveSubscription({
        id: newId(),
        user_id: userId,
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        session_id: from.sessionId,
        label: describeDevice(from.userAgent),
        at: nowIso(),
      });
      return { id };
    },

    /**
     * The user's browsers that receive reminders. Never the endpoint URL (a capability: whoever has
     * it, with the keys, can push to that browser) — its host only, the browser's label, when it
     * subscribed, and whether it was this session.
     */
    async list(userId: string, sessionId: string) {
      const rows = await repo.subscriptions(userId);
      return {
        subscriptions: rows.map((r) => ({
          id: r.id,
          endpoint_host: new URL(r.endpoint).host,
          label: r.label ?? UNKNOWN_DEVICE,
          created_at: r.created_at,
          this_session: r.session_id === sessionId,
        })),
      };
    },

    /**
     * Sends one notification to this subscription, so the user sees that reminders reach the device.
     * A push service that no longer knows it (404/410) ends it here too: 404, as for a removed one.
     */
    async test(userId: string, id: string): Promise<void> {
      const target = await repo.subscription(userId, id);
      if (!target) throw notFound('Push subscription not found');
      const outcome = await deps.push(target, testPush(translator(await repo.language(userId))));
      if (outcome === 'gone') {
        await repo.deleteSubscription(userId, id);
        throw notFound('Push subscription not found');
      }
      if (outcome === 'failed') throw new HttpError(502, 'The push service did not take the notification. Please try again later.');
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!(await repo.deleteSubscription(userId, id))) throw notFound('Push subscription not found');
    },
  };
}
