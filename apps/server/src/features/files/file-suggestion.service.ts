import type { MedicalFile } from '@kinchart/shared/files';
import type { ApplySuggestionInput, FileSuggestion } from '@kinchart/shared/search';
import type { Db } from '../../db/database';
import { notFound } from '../../lib/http-errors';
import type { Actor, PersonAccessService } from '../../common/person-access';
import { createMedicalFileRepository } from './medical-file.repository';
import { FILE_NOT_FOUND, toMedicalFile } from './medical-file.service';
import type { RouteName } from './medical-file.service';
import { createFileSuggestionRepository } from './file-suggestion.repository';
import type { SuggestionTarget } from './file-suggestion.repository';
import { suggestionsFrom } from './file-suggestions';

// Issue 33, docs/decisions/0049: when a file's text is read, what it says of the visit (date,
// provider, reason) is offered on the record card; nothing changes until an editor applies it.

export const NO_SUGGESTION = 'This file has no suggestion';

/** What the extraction runner hands its afterRead hooks, inside the transaction that stores the text. */
export interface TextRead {
  fileId: string;
  /** The file's owner (its person's owner). */
  userId: string;
  profileId: string | null;
  /** The text of each page, in order (strings, or the pages as stored). */
  pages: readonly (string | { text: string })[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * The record's date is still a stand-in: none, the upload instant (SPEC §3: no visit date means
 * "now"), or the day of the upload (the upload form fills in today, in the browser's zone: a day
 * either side of the server's).
 */
function dateUnset(file: SuggestionTarget): boolean {
  if (file.record_date === null || file.record_date === file.created_at) return true;
  const recorded = Date.parse(`${file.record_date.slice(0, 10)}T00:00:00Z`);
  const uploaded = Date.parse(`${file.created_at.slice(0, 10)}T00:00:00Z`);
  return Number.isFinite(recorded) && Number.isFinite(uploaded) && Math.abs(recorded - uploaded) <= DAY_MS;
}

/** The suggestion without what the record already says: a visit date the user gave, a provider or a reason it has. */
export function worthSuggesting(found: FileSuggestion, file: SuggestionTarget): FileSuggestion {
  const date = found.record_date;
  return {
    record_date: date !== null && dateUnset(file) && date !== file.record_date?.slice(0, 10) ? date : null,
    provider_name: file.provider_name === null ? found.provider_name : null,
    visit_reason: file.visit_reason === null ? found.visit_reason : null,
  };
}

export function createFileSuggestionService(deps: { db: Db; access: PersonAccessService; now?: () => Date }) {
  const repo = createFileSuggestionRepository(deps.db);
  const files = createMedicalFileRepository(deps.db);
  const now = deps.now ?? (() => new Date());

  /** The file as the files list gives it, once its suggestion is gone. */
  async function answer(id: string, personId: string): Promise<MedicalFile> {
    const row = await files.findById(id);
    if (!row) throw notFound(FILE_NOT_FOUND);
    const person = { id: personId, name: row.profile_id === null ? await files.personName(personId) : row.person_name };
    return toMedicalFile(row, person);
  }

  return {
    /** The extraction runner's hook: (re)computes the file's suggestion from its text, in the runner's transaction. */
    async afterRead(trx: Db, read: TextRead): Promise<void> {
      const file = await repo.target(trx, read.fileId);
      if (!file) return;
      const providers = read.profileId ? await repo.providerNames(trx, read.userId, read.profileId) : [];
      const pages = read.pages.map((p) => (typeof p === 'string' ? p : p.text));
      const found = worthSuggesting(suggestionsFrom(pages, providers, now().toISOString().slice(0, 10)), file);
      if (found.record_date === null && found.provider_name === null && found.visit_reason === null) await repo.remove(trx, read.fileId);
      else await repo.put(trx, read.fileId, found);
    },

    /** POST /api/user/files/{id}/suggestion/apply: an editor's right on the file's person (DESIGN §11). */
    async apply(actor: Actor, route: RouteName, id: string, input: ApplySuggestionInput): Promise<MedicalFile> {
      const row = await files.findById(id);
      if (!row) throw notFound(FILE_NOT_FOUND);
      const access = await deps.access.row(actor, row, { need: 'editor', what: route }, FILE_NOT_FOUND);
      if (!(await repo.apply(access.ownerId, id, input.fields))) throw notFound(NO_SUGGESTION);
      return answer(id, access.profileId);
    },

    /** DELETE /api/user/files/{id}/suggestion: dismissed, the record unchanged. */
    async dismiss(actor: Actor, route: RouteName, id: string): Promise<void> {
      const row = await files.findById(id);
      if (!row) throw notFound(FILE_NOT_FOUND);
      await deps.access.row(actor, row, { need: 'editor', what: route }, FILE_NOT_FOUND);
      if (!(await repo.remove(deps.db, id))) throw notFound(NO_SUGGESTION);
    },
  };
}
export type FileSuggestionService = ReturnType<typeof createFileSuggestionService>;
