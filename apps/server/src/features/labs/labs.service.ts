import type { AcceptLabResultsAnswer, AcceptLabResultsInput, FileLabResults, LabTests } from '@kinchart/shared/labs';
import { LAB_TESTS_LIMIT } from '@kinchart/shared/labs';
import { CLINICAL_CAP } from '@kinchart/shared/clinical';
import type { Db } from '../../db/database';
import type { Actor, PersonAccessService } from '../../common/person-access';
import { badRequest, notFound } from '../../lib/http-errors';
import { findLabValues, parseNumber } from './lab-values';
import { LOINC_TESTS, normaliseName, testByCode } from './loinc-table';
import type { ExistingLabResult, LabResultInsert } from './labs.repository';
import { createLabsRepository } from './labs.repository';

// Issue 34 (docs/decisions/0052): the lab values a file's text holds, for anyone who may read the
// file; accepted by an editor of the file's person as lab results linked to the file and page. The
// rows are computed from the stored pages on every request (the reader is linear), never stored.

const FILE_NOT_FOUND = 'File not found';
const LOINC_SYSTEM = 'http://loinc.org';

type AcceptRow = AcceptLabResultsInput['results'][number] & {
  unit: string | null;
  reference_text: string | null;
  reference_low: number | null;
  reference_high: number | null;
};

/** The LOINC code an existing result carries: its column, else a LOINC coding (an import's). */
function codeOf(row: ExistingLabResult): string | null {
  if (row.loinc_code) return row.loinc_code;
  try {
    const list: unknown = JSON.parse(row.codings);
    if (!Array.isArray(list)) return null;
    for (const c of list as { system?: unknown; code?: unknown }[]) {
      if (c && c.system === LOINC_SYSTEM && typeof c.code === 'string' && c.code !== '') return c.code;
    }
  } catch {
    return null;
  }
  return null;
}

const lower = (text: string | null): string => (text ?? '').trim().toLowerCase();

/** What "the same result" compares besides the test: date, value and unit. */
function sameKey(date: string | null, value: number | null, valueText: string | null, unit: string | null): string {
  const v = value !== null ? `n:${value}` : `t:${lower(valueText)}`;
  return `${date ?? ''}|${v}|${lower(unit)}`;
}

/** One test of the table as the search compares it: its words, each name's words. */
const SEARCHABLE = LOINC_TESTS.map((test) => ({
  test,
  names: [test.display, ...Object.values(test.synonyms).flat()].map((name) => normaliseName(name).split(' ')),
}));

export function createLabsService(deps: { db: Db; access: PersonAccessService }) {
  const repo = createLabsRepository(deps.db);

  async function readableFile(actor: Actor, route: string, fileId: string, need: 'viewer' | 'editor') {
    const file = await repo.file(fileId);
    if (!file) throw notFound(FILE_NOT_FOUND);
    const person = await deps.access.row(actor, file, { need, what: route }, FILE_NOT_FOUND);
    return { file, person };
  }

  return {
    /** GET /api/user/files/{id}/lab-results: for anyone who may read the file (a viewer and up). */
    async found(actor: Actor, route: string, fileId: string): Promise<FileLabResults> {
      const { file } = await readableFile(actor, route, fileId, 'viewer');
      // A file without a job yet is waiting for one, as its text route says.
      const status = file.status ?? 'pending';
      if (status === 'pending' || status === 'processing') return { status: 'pending', results: [] };
      if (status !== 'done') return { status: 'none', results: [] };
      const results = findLabValues(await repo.pages(fileId)).map((row) => ({
        ...row,
        loinc_display: row.loinc === null ? null : (testByCode(row.loinc)?.display ?? null),
      }));
      return { status: results.length > 0 ? 'done' : 'none', results };
    },

    /**
     * POST /api/user/files/{id}/lab-results/accept: an editor of the file's person adds the rows as lab results, in one
     * transaction; a row the person already has (same test, date, value and unit) is counted, not added again.
     */
    async accept(actor: Actor, route: string, fileId: string, input: { results: AcceptRow[] }): Promise<AcceptLabResultsAnswer> {
      const { file, person } = await readableFile(actor, route, fileId, 'editor');
      // Every file has at least one page (an image, a text file); a PDF as many as its text gave.
      const pages = Math.max(1, file.pages);
      const rows: LabResultInsert[] = input.results.map((row, i) => {
        const field = (name: string) => `results.${i}.${name}`;
        if (row.loinc !== null && !testByCode(row.loinc)) throw badRequest(`${field('loinc')}: must be a LOINC code of the table or null`);
        if (row.page > pages) throw badRequest(`${field('page')}: must be at most ${pages}, the file's pages`);
        if (row.reference_low !== null && row.reference_high !== null && row.reference_low > row.reference_high) {
          throw badRequest(`${field('reference_low')}: must not be above reference_high`);
        }
        const number = typeof row.value === 'number' ? row.value : parseNumber(row.value);
        return {
          name: row.name,
          loinc_code: row.loinc,
          value: number,
          value_text: number === null ? String(row.value) : null,
          unit: row.unit,
          reference_low: row.reference_low,
          reference_high: row.reference_high,
          reference_range: row.reference_text,
          interpretation: row.flag,
          date: row.date,
          source_page: row.page,
        };
      });
      const answer = await repo.accept(person.ownerId, person.profileId, fileId, (existing) => {
        // By date, value and unit, the tests (code, or name without case) already there.
        const present = new Map<string, { code: string | null; name: string }[]>();
        const remember = (key: string, code: string | null, name: string) => {
          const list = present.get(key) ?? [];
          list.push({ code, name: lower(name) });
          present.set(key, list);
        };
        for (const r of existing) remember(sameKey(r.date, r.value, r.value_text, r.unit), codeOf(r), r.name);
        const insert: LabResultInsert[] = [];
        let already = 0;
        for (const row of rows) {
          const key = sameKey(row.date, row.value, row.value_text, row.unit);
          const name = lower(row.name);
          const there = (present.get(key) ?? []).some((p) =>
            p.code !== null && row.loinc_code !== null ? p.code === row.loinc_code : p.name === name,
          );
          if (there) {
            already += 1;
            continue;
          }
          insert.push(row);
          remember(key, row.loinc_code, row.name);
        }
        if (existing.length + insert.length > CLINICAL_CAP) return null;
        return { insert, answer: { created: insert.length, already_present: already } };
      });
      if (!answer) throw badRequest(`A person can have at most ${CLINICAL_CAP} lab results.`);
      return answer;
    },

    /** GET /api/user/lab-tests?q=: tests of the table whose names (any language) have words beginning with every word asked. */
    tests(q: string): LabTests {
      const words = normaliseName(q).split(' ').filter(Boolean);
      if (words.length === 0) return { tests: [] };
      const scored: { rank: number; test: (typeof LOINC_TESTS)[number] }[] = [];
      for (const { test, names } of SEARCHABLE) {
        let rank = Infinity;
        for (const name of names) {
          if (!words.every((w) => name.some((part) => part.startsWith(w)))) continue;
          // A name that is the query comes first, then one that starts with it, then the rest.
          const joined = name.join(' ');
          const asked = words.join(' ');
          rank = Math.min(rank, joined === asked ? 0 : joined.startsWith(asked) ? 1 : 2);
        }
        if (rank !== Infinity) scored.push({ rank, test });
      }
      scored.sort((a, b) => a.rank - b.rank || a.test.display.localeCompare(b.test.display));
      return {
        tests: scored.slice(0, LAB_TESTS_LIMIT).map(({ test }) => ({ loinc: test.loinc, name: test.display, ucum_unit: test.ucum })),
      };
    },
  };
}
export type LabsService = ReturnType<typeof createLabsService>;
