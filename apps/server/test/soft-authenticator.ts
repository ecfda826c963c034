import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

// A software WebAuthn authenticator for the API tests: real P-256 keys, real signatures, and the
// byte layouts of WebAuthn L3 §6.1 (authenticator data), §6.5.4 (the "none" attestation object)
// and §5.8.1 (client data), encoded here rather than with the verifier's own helpers so a fault in
// one cannot hide in the other. The browser journeys use Chromium's virtual authenticator instead.

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

/** Enough of CBOR (RFC 8949) for attestation objects and COSE keys: ints, text, bytes and maps. */
function cbor(value: Cbor): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
    if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64u = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export function createSoftAuthenticator(origin: string) {
  const credentials: SoftCredential[] = [];

  function authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, from = origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: from, crossOrigin: false }));
  }

  return {
    credentials,

    /** navigator.credentials.create(): a new discoverable credential, answered as RegistrationResponseJSON. */
    register(options: CreationOptions, opts: { userVerified?: boolean; origin?: string; reuse?: SoftCredential } = {}) {
      const rpId = options.rp.id ?? new URL(origin).hostname;
      // `reuse`: a misbehaving authenticator that answers with a credential it made before.
      const { privateKey, publicKey } = opts.reuse ?? generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const coseKey = cbor(
        new Map<Cbor, Cbor>([
          [1, 2], // kty: EC2
          [3, -7], // alg: ES256
          [-1, 1], // crv: P-256
          [-2, Buffer.from(jwk.x as string, 'base64url')],
          [-3, Buffer.from(jwk.y as string, 'base64url')],
        ]),
      );
      const id = opts.reuse?.id ?? randomBytes(32);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(id.length);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, id, coseKey]);
      const flags = FLAG_UP | FLAG_AT | (opts.userVerified === false ? 0 : FLAG_UV);
      const data = authData(rpId, flags, 0, attested);
      const attestationObject = cbor(
        new Map<Cbor, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', data],
        ]),
      );
      const credential: SoftCredential = { id, privateKey, publicKey, rpId, userHandle: options.user.id, counter: 0 };
      credentials.push(credential);
      return {
        credential,
        response: {
          id: b64u(id),
          rawId: b64u(id),
          type: 'public-key' as const,
          clientExtensionResults: {},
          authenticatorAttachment: 'cross-platform' as const,
          response: {
            clientDataJSON: b64u(clientData('webauthn.create', options.challenge, opts.origin)),
            attestationObject: b64u(attestationObject),
            transports: ['usb'],
          },
        },
      };
    },

    /**
     * navigator.credentials.get(): signs the challenge with `credential` (or the first one the
     * options allow), answered as AuthenticationResponseJSON. The counter grows on each use.
     */
    assert(options: RequestOptions, opts: { credential?: SoftCredential; userVerified?: boolean; origin?: string; counter?: number } = {}) {
      const allowed = options.allowCredentials?.map((c) => c.id) ?? [];
      const credential = opts.credential ?? credentials.find((c) => allowed.length === 0 || allowed.includes(b64u(c.id)));
      if (!credential) throw new Error('No credential for these options');
      credential.counter = opts.counter ?? credential.counter + 1;
      const data = authData(options.rpId ?? credential.rpId, FLAG_UP | (opts.userVerified === false ? 0 : FLAG_UV), credential.counter);
      const client = clientData('webauthn.get', options.challenge, opts.origin);
      const signature = sign('sha256', Buffer.concat([data, sha256(client)]), credential.privateKey);
      return {
        id: b64u(credential.id),
        rawId: b64u(credential.id),
        type: 'public-key' as const,
        clientExtensionResults: {},
        authenticatorAttachment: 'cross-platform' as const,
        response: {
          clientDataJSON: b64u(client),
          authenticatorData: b64u(data),
          signature: b64u(signature),
          userHandle: credential.userHandle,
        },
      };
    },
  };
}
