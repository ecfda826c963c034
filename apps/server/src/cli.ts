import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config';
import { backup } from './ops/backup';
import type { OpsLog } from './ops/ops-common';
import { OpsError } from './ops/ops-common';
import { printResetLink } from './ops/reset-password';
import { restore } from './ops/restore';
import { rotateDeploymentKey } from './ops/rotate-master-key';
import { reindex, runTextWorker } from './ops/text-jobs';

// Operations commands, run as `npm run backup|restore|rotate-key|reset-password|reindex|worker -- …` (README "Deployment").
// They read the same environment as the server (DATA_DIR, DATABASE_URL, MASTER_KEY, STORAGE, S3_*).

const USAGE = `Usage:
  npm run backup -- [--out <dir>] [--include-key]
      Online backup of a SQLite deployment (database snapshot and stored files) into <dir>
      (default ./backups/kinchart-<time>). --include-key also writes the master key into it.
  npm run restore -- <backup dir>
      Restores a backup into an empty DATA_DIR (and blob store).
  npm run rotate-key -- --new-key <base64> | --new-key-file <file>
      Re-wraps every file's data key under a new master key. Stop every instance first.
  npm run reset-password -- --email <address>
      Prints a single-use password reset link (valid 30 minutes) for the account, to pass on
      when the server sends no email. Its second factors stay as they are.
  npm run reindex
      Queues every stored file to have its text read again (servers and workers read them in the background).
  npm run worker
      Reads files' text (TEXT_WORKERS at a time, at least one) and nothing else, until SIGTERM or SIGINT.`;

const log: OpsLog = {
  info: (message) => console.log(message),
  warn: (message) => console.error(`Warning: ${message}`),
};

function timestamp(): string {
  return new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      'include-key': { type: 'boolean', default: false },
      'new-key': { type: 'string' },
      'new-key-file': { type: 'string' },
      email: { type: 'string' },
    },
  });
  const config = loadConfig();
  switch (command ?? '') {
    case 'backup':
      await backup(config, { out: values.out ?? path.join('backups', `kinchart-${timestamp()}`), includeKey: values['include-key'], log });
      return 0;
    case 'restore': {
      const [from] = positionals;
      if (!from || positionals.length > 1) throw new OpsError(`restore takes the backup directory\n${USAGE}`);
      await restore(config, { from, log });
      return 0;
    }
    case 'rotate-key': {
      const fromFile = values['new-key-file'];
      const newKey = values['new-key'] ?? (fromFile ? fs.readFileSync(fromFile, 'utf8') : undefined);
      if (!newKey || (values['new-key'] && fromFile)) throw new OpsError(`rotate-key takes one of --new-key or --new-key-file\n${USAGE}`);
      await rotateDeploymentKey(config, { newKey, log });
      return 0;
    }
    case 'reset-password': {
      if (!values.email || positionals.length > 0) throw new OpsError(`reset-password takes --email <address>\n${USAGE}`);
      await printResetLink(config, { email: values.email, log });
      return 0;
    }
    case 'reindex':
      if (positionals.length > 0) throw new OpsError(`reindex takes no arguments\n${USAGE}`);
      await reindex(config, { log });
      return 0;
    case 'worker':
      if (positionals.length > 0) throw new OpsError(`worker takes no arguments\n${USAGE}`);
      await runTextWorker(config, { log });
      return 0;
    default:
      console.error(USAGE);
      return command === 'help' || command === '--help' ? 0 : 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof OpsError) console.error(error.message);
    else if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) console.error(`${(error as Error).message}\n${USAGE}`);
    else console.error('Failed:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
