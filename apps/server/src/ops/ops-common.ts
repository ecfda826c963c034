import path from 'node:path';
import type { Config } from '../config';

/** Where the operations commands report: the CLI prints info to stdout and warnings to stderr. */
export interface OpsLog {
  info(message: string): void;
  warn(message: string): void;
}

/** A refusal an operator can act on: the CLI prints the message alone and exits 1. */
export class OpsError extends Error {}

export const DB_FILE = 'kinchart.db';

export function sqliteFileOf(config: Config): string {
  return path.join(config.dataDir, DB_FILE);
}

export function assertSqlite(config: Config, command: string): void {
  if (config.databaseUrl) {
    throw new OpsError(
      `${command} covers SQLite deployments; on PostgreSQL use pg_dump / pg_restore and copy the bucket (README "Deployment")`,
    );
  }
}
