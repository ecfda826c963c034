import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { FileText } from '@kinchart/shared/search';
import { DEFAULT_DOCUMENT_LANGUAGES, DOCUMENT_LANGUAGES } from '@kinchart/shared/search';
import type { Db } from '../../db/database';
import type { Actor, PersonAccessService } from '../../common/person-access';
import { notFound } from '../../lib/http-errors';
import type { ExtractLimits } from './extract';
import { DEFAULT_LIMITS, extractPages, isAbort } from './extract';
import { TEXT_REASONS, UnreadableError, UnsupportedError } from './text-reasons';
import type { ClaimedJob, TextTransaction } from './text.repository';
import { createTextRepository } from './text.repository';

// Issue 33, docs/decisions/0047: reading every file's text in the background, and handing it to
// whoever may read the file. Jobs live in file_text_jobs; this process takes at most TEXT_WORKERS
// of them at a time, polls when idle, and is nudged right after an upload. Text and file names
// are never logged (DESIGN §5): only file ids and the kind of failure.

const FILE_NOT_FOUND = 'File not found';

/** What a hook gets once a file's text is read: called inside the transaction that stores it. */
export interface TextRead {
  fileId: string;
  userId: string;
  profileId: string | null;
  pages: { page: number; text: string }[];
}
/** Runs inside the success transaction (helper D's suggestions); a throw undoes the whole read. */
export type AfterRead = (trx: TextTransaction, read: TextRead) => Promise<void>;

export interface TextJobsOptions {
  /** false: no timer; the caller runs jobs with `runOnce`/`drain` (tests). Default true. */
  timer?: boolean;
  /** Idle poll interval (ms). */
  pollMs?: number;
  /** How long a claim holds before another worker may take the job again (ms). */
  leaseMs?: number;
  limits?: Partial<ExtractLimits>;
}

export interface TextServiceDeps {
  db: Db;
  access: PersonAccessService;
  /** The decrypted bytes of a stored file (the files feature's reader); undefined when it is gone. */
  readFile: (fileId: string) => Promise<Buffer | undefined>;
  log: FastifyBaseLogger;
  /** How many jobs at once (TEXT_WORKERS); 0: this process takes none (its timer does not run). */
  workers: number;
  afterRead?: readonly AfterRead[];
  now?: () => Date;
}

const MAX_ATTEMPTS = 3;
const DEFAULT_POLL_MS = 2_000;
const DEFAULT_LEASE_MS = 10 * 60_000;

/** The account's document languages as Tesseract codes, in its order; English when unset or unreadable. */
export function tesseractLanguages(stored: string | null): string[] {
  let codes: unknown = DEFAULT_DOCUMENT_LANGUAGES;
  try {
    if (stored !== null) codes = JSON.parse(stored);
  } catch {
    codes = DEFAULT_DOCUMENT_LANGUAGES;
  }
  // In the account's order: Tesseract leans on the first language (an English-first German page loses its umlauts).
  const found = (Array.isArray(codes) ? codes : []).flatMap((code) =>
    DOCUMENT_LANGUAGES.filter((l) => l.code === code).map((l) => l.tesseract),
  );
  return found.length > 0 ? [...new Set(found)] : ['eng'];
}

export function createTextService(deps: TextServiceDeps, options: TextJobsOptions = {}) {
  const repo = createTextRepository(deps.db);
  const now = deps.now ?? (() => new Date());
  const iso = (offsetMs = 0) => new Date(now().getTime() + offsetMs).toISOString();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const limits: ExtractLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const hooks = deps.afterRead ?? [];
  // One id per process and service: a job's worker_id says who holds it.
  const workerId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  /** Reads one claimed job to its end: done, failed, unsupported, or handed back. */
  async function work(job: ClaimedJob, signal: AbortSignal): Promise<void> {
    try {
      const bytes = await deps.readFile(job.fileId);
      if (!bytes) return; // deleted meanwhile: its job went with it
      const pages = await extractPages(bytes, job.fileType, {
        languages: tesseractLanguages(job.documentLanguages),
        limits,
        signal,
        onPage: async () => {
          if (!(await repo.renew(job.fileId, workerId, iso(), iso(leaseMs)))) throw new LostJobError();
        },
      });
      const read: TextRead = {
        fileId: job.fileId,
        userId: job.userId,
        profileId: job.profileId,
        pages: pages.map((text, i) => ({ page: i + 1, text })),
      };
      await repo.complete(job.fileId, workerId, pages, iso(), async (trx) => {
        for (const hook of hooks) await hook(trx, read);
      });
    } catch (error) {
      if (error instanceof UnsupportedError) return repo.finish(job.fileId, workerId, 'unsupported', error.reason, iso());
      if (error instanceof UnreadableError) return repo.finish(job.fileId, workerId, 'failed', error.reason, iso());
      if (error instanceof LostJobError) return;
      if (isAbort(error)) return repo.release(job.fileId, workerId, iso(), true);
      // Anything else (storage, database): tried again later, up to MAX_ATTEMPTS times.
      deps.log.error(
        { err: { message: (error as Error).message, name: (error as Error).name }, fileId: job.fileId },
        'reading a file failed',
      );
      if (job.attempts >= MAX_ATTEMPTS) return repo.finish(job.fileId, workerId, 'failed', TEXT_REASONS.tooManyTries, iso());
      return repo.release(job.fileId, workerId, iso(), false);
    }
  }

  // ---------- the runner ----------
  const inFlight = new Set<Promise<void>>();
  const abort = new AbortController();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pumping = false;

  /** Claims and reads one job; false when there was none. */
  async function runOnce(): Promise<boolean> {
    if (stopped) return false;
    const job = await repo.claim(workerId, iso(), iso(leaseMs), MAX_ATTEMPTS, TEXT_REASONS.tooManyTries);
    if (!job) return false;
    const running = work(job, abort.signal);
    inFlight.add(running);
    try {
      await running;
    } finally {
      inFlight.delete(running);
    }
    return true;
  }

  /** Fills the free slots with jobs; when a job ends the next is taken at once, else the poll waits. */
  function pump(): void {
    if (stopped || pumping || deps.workers <= 0) return;
    pumping = true;
    clearTimeout(timer);
    const fill = async () => {
      while (!stopped && inFlight.size < deps.workers) {
        const job = await repo.claim(workerId, iso(), iso(leaseMs), MAX_ATTEMPTS, TEXT_REASONS.tooManyTries);
        if (!job) break;
        const running = work(job, abort.signal).finally(() => {
          inFlight.delete(running);
          pump();
        });
        inFlight.add(running);
      }
    };
    fill()
      .catch((error: unknown) => deps.log.error({ err: error }, 'text jobs could not be claimed'))
      .finally(() => {
        pumping = false;
        if (!stopped && options.timer !== false) {
          clearTimeout(timer);
          timer = setTimeout(pump, options.pollMs ?? DEFAULT_POLL_MS);
          timer.unref();
        }
      });
  }

  return {
    /** GET /api/user/files/{id}/text: for anyone who may read the file (a viewer and up, DESIGN §11). */
    async text(actor: Actor, route: string, fileId: string): Promise<FileText> {
      const file = await repo.fileWithStatus(fileId);
      if (!file) throw notFound(FILE_NOT_FOUND);
      await deps.access.row(actor, file, { need: 'viewer', what: route }, FILE_NOT_FOUND);
      // The pages of the last successful read (a file queued again keeps them until it is read anew).
      return { text_status: file.status ?? 'pending', pages: await repo.pages(fileId) };
    },

    /** Starts the timer (unless `timer: false` or no workers). */
    start(): void {
      if (options.timer !== false) pump();
    },

    /** A file was just stored: look for work now rather than at the next poll. */
    nudge(): void {
      if (options.timer !== false) pump();
    },

    runOnce,

    /** Reads jobs until none is left; answers how many. */
    async drain(): Promise<number> {
      let n = 0;
      while (await runOnce()) n += 1;
      return n;
    },

    /** Stops taking jobs; the ones in progress are stopped and handed back (pending) for another worker. */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      abort.abort();
      await Promise.allSettled([...inFlight]);
    },
  };
}
export type TextService = ReturnType<typeof createTextService>;

class LostJobError extends Error {}
