import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import webpush from 'web-push';
import type { PushConfig } from '../../config';

// Web Push's VAPID keys (RFC 8292): VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when set; otherwise
// DATA_DIR/vapid.json, generated once with mode 0600 like master.key (a private temporary file,
// flushed, then hard-linked into place, so two processes starting together agree) and read back on
// later starts. A browser's subscription is bound to the public key: it must not change.

export const VAPID_FILE = 'vapid.json';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export function loadVapidKeys(push: PushConfig, dataDir: string): VapidKeys {
  if (push.vapid) return push.vapid;
  const file = path.join(dataDir, VAPID_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const fd = fs.openSync(temp, 'wx', 0o600);
    try {
      fs.writeSync(fd, `${JSON.stringify(webpush.generateVAPIDKeys())}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(temp, { force: true });
    }
  }
  const keys = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<VapidKeys>;
  if (typeof keys.publicKey !== 'string' || typeof keys.privateKey !== 'string') throw new Error(`${file} does not hold VAPID keys`);
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}
