import { describe, expect, it } from 'vitest';
import { passkeyAssertionSchema } from './auth';

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The base64url length of `bytes` random bytes (only the shape matters to the schema). */
const b64 = (bytes: number) => Array.from({ length: Math.ceil((bytes * 4) / 3) }, () => B64URL[Math.floor(Math.random() * 64)]).join('');
const assertion = (signatureBytes: number) => ({
  id: b64(32),
  rawId: b64(32),
  type: 'public-key',
  clientExtensionResults: {},
  response: { clientDataJSON: b64(200), authenticatorData: b64(37), signature: b64(signatureBytes) },
});

describe('a passkey sign-in answer', () => {
  // Issue 30 item 12: on Node 24 the server offers ML-DSA first and Chromium signs with it.
  it('is accepted with a post-quantum signature (ML-DSA-44: 2,420 bytes; ML-DSA-87: 4,627 bytes)', () => {
    expect(passkeyAssertionSchema.safeParse(assertion(2420)).success).toBe(true);
    expect(passkeyAssertionSchema.safeParse(assertion(4627)).success).toBe(true);
    expect(passkeyAssertionSchema.safeParse(assertion(72)).success).toBe(true);
  });

  it('is refused when the signature is larger than any algorithm makes', () => {
    const result = passkeyAssertionSchema.safeParse(assertion(8000));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['response', 'signature']);
  });
});
