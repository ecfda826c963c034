import path from 'node:path';
import webpush from 'web-push';
import type { PushConfig } from '../../config';
import { readOrCreateSecretFile } from '../../storage/secret-file';

// Web Push's VAPID keys (RFC 8292): VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when set; otherwise
// DATA_DIR/vapid.json, generated once with mode 0600 like master.key (storage/secret-file.ts: two
// processes starting together agree) and read back on later starts. A browser's subscription is bound to the public key: it must not change.

export const VAPID_FILE = 'vapid.json';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export function loadVapidKeys(push: PushConfig, dataDir: string): VapidKeys {
  if (push.vapid) return push.vapid;
  const file = path.join(dataDir, VAPID_FILE);
  const text = readOrCreateSecretFile(dataDir, VAPID_FILE, () => `${JSON.stringify(webpush.generateVAPIDKeys())}\n`);
  const keys = JSON.parse(text) as Partial<VapidKeys>;
  if (typeof keys.publicKey !== 'string' || typeof keys.privateKey !== 'string') throw new Error(`${file} does not hold VAPID keys`);
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}
