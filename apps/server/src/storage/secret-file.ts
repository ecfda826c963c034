import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * A secret kept in a file of DATA_DIR (the master key, the VAPID keys): read when it is there, else
 * made once — written to a temporary file (mode 0600), flushed, then hard-linked into place, so two
 * processes starting together agree on one secret and a crash never leaves a half-written one.
 * Returns the file's text.
 */
export function readOrCreateSecretFile(dataDir: string, name: string, make: () => string): string {
  const file = path.join(dataDir, name);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const fd = fs.openSync(temp, 'wx', 0o600);
    try {
      fs.writeSync(fd, make());
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
  return fs.readFileSync(file, 'utf8');
}
