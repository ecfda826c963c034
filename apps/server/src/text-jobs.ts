import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/database';
import type { PersonAccessService } from './common/person-access';
import type { AfterRead, TextJobsOptions, TextService } from './features/text/text.service';
import { createTextService } from './features/text/text.service';
import { createFileSuggestionService } from './features/files/file-suggestion.service';

// Issue 33: the text runner as every process builds it — the server (app.ts) and the dedicated
// worker (`npm run worker`, ops/text-jobs.ts) — so both run the same hooks in the same transaction.

export interface TextJobsDeps {
  db: Db;
  access: PersonAccessService;
  /** The files feature's reader of a stored file's decrypted bytes. */
  readFile: (fileId: string) => Promise<Buffer | undefined>;
  log: FastifyBaseLogger;
  /** TEXT_WORKERS. */
  workers: number;
  now?: () => Date;
}

export function createTextJobs(deps: TextJobsDeps, options?: TextJobsOptions): TextService {
  // What runs inside the transaction that stores a file's text (the suggestions, issue 33).
  const afterRead: AfterRead[] = [];
  // What the text suggests for the record's date, provider and reason (decision 0049).
  const suggestions = createFileSuggestionService({ db: deps.db, access: deps.access, ...(deps.now ? { now: deps.now } : {}) });
  afterRead.push((trx, read) => suggestions.afterRead(trx, read));
  return createTextService({ ...deps, afterRead }, options);
}
