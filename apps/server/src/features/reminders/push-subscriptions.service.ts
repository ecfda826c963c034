import type { z } from 'zod';
import type { pushSubscriptionInputSchema } from '@kinchart/shared/care';
import { HttpError, badRequest, notFound } from '../../lib/http-errors';
import type { PushSender } from './push-sender';
import { newId, nowIso } from '../../lib/ids';
import type { ReminderRepository } from './reminders.repository';
import { translator, type Translator } from '../../i18n/translator';

// Web Push subscriptions (issue 32, RFC 8030): the endpoint is a URL the browser — that is, the
// client — chose, so the server only ever keeps (and sends to) https endpoints on the hosts
// PUSH_ALLOWED_HOSTS lists: nothing reaches into the server's own network.

export type PushSubscriptionService = ReturnType<typeof createPushSubscriptionService>;

/**
 * True when `url` may receive pushes: https, no user or password, and its host listed — an entry
 * "host" or "host:port" matches exactly (without a port, only the default 443), an entry
 * "*.example.com" any subdomain of example.com on 443 (not example.com itself).
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
  const port = parsed.port;
  return allowedHosts.some((entry) => {
    const colon = entry.lastIndexOf(':');
    const [name, entryPort] = colon > 0 ? [entry.slice(0, colon), entry.slice(colon + 1)] : [entry, ''];
    if (entryPort !== port) return false;
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
    /** Keeps the browser's subscription; the same endpoint again updates its keys. */
    async subscribe(userId: string, input: z.infer<typeof pushSubscriptionInputSchema>): Promise<{ id: string }> {
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
        at: nowIso(),
      });
      return { id };
    },

    async list(userId: string) {
      const rows = await repo.subscriptions(userId);
      return { subscriptions: rows.map((r) => ({ id: r.id, endpoint_host: new URL(r.endpoint).host, created_at: r.created_at })) };
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
