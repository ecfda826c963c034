import path from 'node:path';
import { emailSchema } from '@kinchart/shared/auth';
import type { Config } from '../config';
import { createDatabase } from '../db/database';
import { createPasswordResetService } from '../features/auth/password-reset.service';
import type { OpsLog } from './ops-common';
import { DB_FILE, OpsError } from './ops-common';

/**
 * `npm run reset-password -- --email …` (docs/decisions/0025): on a server without email, the
 * operator gets the account's reset link to pass on, by a channel they trust. It is the link the
 * email would carry — single use, 30 minutes, replacing the account's other links — and, like it,
 * leaves the account's second factors alone.
 */
export async function printResetLink(config: Config, options: { email: string; log: OpsLog }): Promise<void> {
  const email = emailSchema.safeParse(options.email);
  if (!email.success) throw new OpsError(`reset-password: "${options.email}" is not an email address`);
  const database = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, DB_FILE) });
  try {
    const resets = createPasswordResetService({ db: database.db, mailer: undefined, publicUrl: config.publicUrl });
    const link = await resets.linkForOperator(email.data);
    if (!link) throw new OpsError(`reset-password: no account uses ${email.data}`);
    options.log.info(`Password reset link for ${email.data} (single use, valid 30 minutes):\n${link}`);
  } finally {
    await database.db.destroy();
  }
}
