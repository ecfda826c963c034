import { hash, verify } from '@node-rs/argon2';

// DESIGN §5 / OWASP Password Storage Cheat Sheet: argon2id, m=19456 KiB, t=2, p=1.
// algorithm 2 is Algorithm.Argon2id (a const enum, which isolated modules cannot read).
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashSecret = (secret: string): Promise<string> => hash(secret, OPTIONS);

export async function verifySecret(hashed: string, secret: string): Promise<boolean> {
  try {
    return await verify(hashed, secret);
  } catch {
    return false;
  }
}

// Verifying against this when the account does not exist makes an unknown email cost the same
// time as a wrong password (DESIGN §5: same status, message and time).
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(secret: string): Promise<false> {
  dummyHash ??= hashSecret('kinchart-timing-equaliser-not-a-password');
  await verifySecret(await dummyHash, secret);
  return false;
}
