import { createECDH, createPublicKey, createVerify, hkdfSync, createDecipheriv, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

// A Web Push service on loopback, over TLS with a certificate made here (openssl), for the pushes
// the app sends (issue 32). Like a browser's push service it checks the VAPID JWT (RFC 8292: ES256
// with the `k` public key, `aud` the endpoint's origin, `exp` within 24 hours); like the browser it
// decrypts the aes128gcm payload (RFC 8291, RFC 8188) with the subscription's private key. An
// endpoint marked gone answers 410.

export interface ReceivedPush {
  /** The subscription (the endpoint's last path segment). */
  id: string;
  payload: Record<string, unknown>;
  claims: { aud: string; exp: number; sub: string };
  /** The VAPID JWT as sent. */
  jwt: string;
  vapidKey: string;
  ttl: string | undefined;
}

/** A browser's subscription: the keys it made, and the JSON it hands the server. */
export interface BrowserSubscription {
  id: string;
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
  json: { endpoint: string; keys: { p256dh: string; auth: string } };
}

export interface LoopbackPush {
  /** "localhost:port", for PUSH_ALLOWED_HOSTS. */
  host: string;
  origin: string;
  /** The certificate the app's https agent trusts. */
  agent: https.Agent;
  /** The service's certificate (PEM): a server process trusts it through NODE_EXTRA_CA_CERTS. */
  cert: Buffer;
  received: ReceivedPush[];
  /** Refusals, with the reason (a bad JWT or a payload that does not decrypt). */
  refused: string[];
  subscription(): BrowserSubscription;
  /** The endpoint answers 410 Gone from now on. */
  gone(id: string): void;
  /**
   * From now on each push waits before its answer until `count` are in flight (or 500 ms pass), as a
   * push service that is slow to answer; answers the most that were ever in flight at once.
   */
  holdUntilInFlight(count: number): void;
  readonly maxInFlight: number;
  /** Waits (woken by arrivals, failing after 10 s) until `id` has received `count` pushes. */
  pushesTo(id: string, count: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

/** A self-signed P-256 certificate for localhost (openssl); the reminders bench's push service uses it too. */
export function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-push-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** RFC 8292: "vapid t=<jwt>, k=<key>" checked with the key, for this origin; answers the claims. */
function verifyVapid(header: string | undefined, origin: string): { claims: ReceivedPush['claims']; key: string; jwt: string } {
  const t = /(?:^|[\s,])t=([\w.-]+)/.exec(header ?? '')?.[1];
  const k = /(?:^|[\s,])k=([\w-]+)/.exec(header ?? '')?.[1];
  if (!header?.startsWith('vapid ') || !t || !k) throw new Error('no VAPID authorization');
  const [head, body, signature] = t.split('.');
  if (!head || !body || !signature) throw new Error('not a JWT');
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not a P-256 point');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  if (JSON.parse(Buffer.from(head, 'base64url').toString()).alg !== 'ES256') throw new Error('alg is not ES256');
  const ok = createVerify('SHA256')
    .update(`${head}.${body}`)
    .verify({ key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!ok) throw new Error('the JWT signature does not verify');
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as ReceivedPush['claims'];
  if (claims.aud !== origin) throw new Error(`aud ${claims.aud} is not ${origin}`);
  const now = Date.now() / 1000;
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) throw new Error('exp is not within 24 hours');
  return { claims, key: k, jwt: t };
}

/** RFC 8291 + RFC 8188: one aes128gcm record, decrypted with the subscription's private key and auth secret. */
function decrypt(body: Buffer, sub: BrowserSubscription): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body[20] ?? 0;
  const serverKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const secret = sub.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), sub.ecdh.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync('sha256', secret, sub.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}

export async function startLoopbackPush(): Promise<LoopbackPush> {
  const { key, cert } = selfSignedCertificate();
  const subscriptions = new Map<string, BrowserSubscription>();
  const goneIds = new Set<string>();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  const arrivals = new EventEmitter();
  arrivals.setMaxListeners(0);
  let origin = '';
  let inFlight = 0;
  let maxInFlight = 0;
  let holdFor = 0;
  const inFlightChanged = new EventEmitter();
  inFlightChanged.setMaxListeners(0);
  /** Resolves once `holdFor` pushes are in flight, or after 500 ms. */
  const held = () =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (inFlight < holdFor) return;
        clearTimeout(timer);
        inFlightChanged.off('change', check);
        resolve();
      };
      const timer = setTimeout(() => {
        inFlightChanged.off('change', check);
        resolve();
      }, 500);
      inFlightChanged.on('change', check);
      check();
    });

  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    const answer = async () => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      inFlightChanged.emit('change');
      res.on('finish', () => {
        inFlight -= 1;
      });
      if (holdFor > 0) await held();
      const id = (req.url ?? '').split('/').pop() ?? '';
      const sub = subscriptions.get(id);
      if (req.method !== 'POST' || !sub) return void res.writeHead(404).end();
      if (goneIds.has(id)) return void res.writeHead(410).end();
      try {
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
        const { claims, key: vapidKey, jwt } = verifyVapid(req.headers.authorization, origin);
        const payload = JSON.parse(decrypt(Buffer.concat(chunks), sub).toString('utf8')) as Record<string, unknown>;
        received.push({ id, payload, claims, jwt, vapidKey, ttl: req.headers.ttl as string | undefined });
        arrivals.emit('push');
        res.writeHead(201).end();
      } catch (error) {
        refused.push((error as Error).message);
        arrivals.emit('push');
        res.writeHead(400).end();
      }
    };
    req.on('end', () => void answer());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `https://localhost:${port}`;
  // The app trusts this certificate through its push agent (web-push's `agent` option).
  const agent = new https.Agent({ ca: cert, keepAlive: false, lookup: (_h, _o, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]) });

  return {
    host: `localhost:${port}`,
    origin,
    agent,
    cert,
    received,
    refused,
    subscription() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const id = randomBytes(8).toString('hex');
      const sub: BrowserSubscription = {
        id,
        ecdh,
        auth,
        json: {
          endpoint: `${origin}/push/${id}`,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        },
      };
      subscriptions.set(id, sub);
      return sub;
    },
    gone(id) {
      goneIds.add(id);
    },
    holdUntilInFlight(count) {
      holdFor = count;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    pushesTo(id, count) {
      const mine = () => received.filter((p) => p.id === id);
      return new Promise((resolve, reject) => {
        const check = () => {
          if (mine().length < count) return;
          clearTimeout(timer);
          arrivals.off('push', check);
          resolve(mine());
        };
        const timer = setTimeout(() => {
          arrivals.off('push', check);
          reject(new Error(`push ${id}: ${mine().length} of ${count} arrived (refused: ${refused.join('; ')})`));
        }, 10_000);
        arrivals.on('push', check);
        check();
      });
    },
    async close() {
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
