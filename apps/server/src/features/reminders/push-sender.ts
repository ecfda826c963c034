import type { Agent } from 'node:https';
import webpush from 'web-push';
import type { VapidKeys } from './vapid-keys';

// Web Push (RFC 8030, 8291 aes128gcm, 8292 VAPID) through the `web-push` package. The endpoint was
// checked against PUSH_ALLOWED_HOSTS when it was stored; it is checked again here before any send.

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** What a send came to: delivered, gone (404/410: the subscription is to be removed) or failed. */
export type PushOutcome = 'sent' | 'gone' | 'failed';

export type PushSender = (target: PushTarget, payload: string) => Promise<PushOutcome>;

/** A VAPID JWT's life, and how long one is reused before a fresh one is signed. */
const VAPID_JWT_SECONDS = 12 * 3600;
const VAPID_REUSE_MS = 3600_000;

export function createPushSender(deps: {
  keys: VapidKeys;
  /** The VAPID subject (RFC 8292 §2.1): an https: URL or a mailto: address. */
  subject: string;
  allowed: (endpoint: string) => boolean;
  /** An https agent (a test's loopback push service trusts its own certificate this way). */
  agent?: Agent;
}): PushSender {
  // RFC 8292 §2: one VAPID JWT may serve many requests to the same push service. Signing one per
  // push is a fifth of a push's CPU in a busy minute, so each push service's (each origin's) is
  // kept for an hour and written to expire in twelve (the RFC allows up to 24).
  const signed = new Map<string, { authorization: string; until: number }>();
  const authorization = (endpoint: string): string => {
    const audience = new URL(endpoint).origin;
    const now = Date.now();
    let entry = signed.get(audience);
    if (!entry || entry.until <= now) {
      const expires = Math.floor(now / 1000) + VAPID_JWT_SECONDS;
      const headers = webpush.getVapidHeaders(audience, deps.subject, deps.keys.publicKey, deps.keys.privateKey, 'aes128gcm', expires);
      entry = { authorization: String(headers.Authorization), until: now + VAPID_REUSE_MS };
      signed.set(audience, entry);
    }
    return entry.authorization;
  };
  return async (target, payload) => {
    if (!deps.allowed(target.endpoint)) return 'failed';
    try {
      await webpush.sendNotification({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
        headers: { Authorization: authorization(target.endpoint) },
        TTL: 3600,
        urgency: 'high',
        contentEncoding: 'aes128gcm',
        timeout: 10_000,
        ...(deps.agent ? { agent: deps.agent } : {}),
      });
      return 'sent';
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      return status === 404 || status === 410 ? 'gone' : 'failed';
    }
  };
}

/** The VAPID subject: PUBLIC_URL when it is https (not localhost), else a mailto: address of MAIL_FROM or a placeholder. */
export function vapidSubject(publicUrl: string, mailFrom: string | undefined): string {
  const url = new URL(publicUrl);
  if (url.protocol === 'https:' && url.hostname !== 'localhost') return url.origin;
  const address = mailFrom ? (/<([^<>]+)>/.exec(mailFrom)?.[1] ?? mailFrom) : undefined;
  return `mailto:${address ?? 'kinchart@example.invalid'}`;
}
