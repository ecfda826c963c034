import type { ClinicalCounts, KinchartExportParsed } from '@kinchart/shared/export';
import type { Coding } from '@kinchart/shared/clinical';
import { CLINICAL_CAP, CLINICAL_LABELS } from '@kinchart/shared/clinical';
import { badRequest } from '../../lib/http-errors';
import type { AnyKindSpec, ClinicalTable } from '../clinical/clinical-kinds';
import { KINDS } from '../clinical/clinical-kinds';
import type { ClinicalInsert, ClinicalRowBase } from '../clinical/clinical.service';
import { identity } from './kinchart-match';

// A Kinchart export's clinical items (DESIGN §12; format version 2, decision 0004) restored into an
// account. Unlike the three lists, they are only ever added — to the own profile as to members —
// never replaced: a version 1 export has none, and restoring it must not take away what the account
// has entered since. Items the account already holds are not added again (decision 0012): each kind
// has an identity key, compared trimmed and case-blind, counted as a multiset per person, as
// kinchart-match.ts does for the other records.

type ExportProfile = KinchartExportParsed['profiles'][number];
type Item = Record<string, unknown>;
const v = (x: unknown) => (typeof x === 'string' || typeof x === 'number' ? x : null);

/** What says two items of a kind are the same item: what a person would call the same record. */
export const clinicalKeyOf: Record<ClinicalTable, (item: Item) => string> = {
  immunizations: (i) => identity(v(i.vaccine), v(i.date), v(i.dose_number), v(i.lot_number)),
  lab_results: (r) => identity(v(r.name), v(r.date), v(r.value), v(r.value_text), v(r.unit)),
  conditions: (c) => identity(v(c.name), v(c.onset_date)),
  procedures: (p) => identity(v(p.name), v(p.performed_date)),
};

/** The export's list of a table's items. */
const ITEMS_OF: Record<ClinicalTable, (p: ExportProfile) => readonly Item[]> = {
  immunizations: (p) => p.immunizations,
  lab_results: (p) => p.lab_results,
  conditions: (p) => p.conditions,
  procedures: (p) => p.procedures,
};

export interface ClinicalWrite {
  table: ClinicalTable;
  /** The account's profile the items go to. */
  profileId: string;
  items: ClinicalInsert[];
}

export interface ClinicalRestore {
  writes: ClinicalWrite[];
  counts: ClinicalCounts;
  present: ClinicalCounts;
}

/** The account's clinical items, by table (clinical.service.ts clinicalTransfer). */
export type ExistingClinical = Record<ClinicalTable, readonly ClinicalRowBase[]>;

const specOf = (table: ClinicalTable): AnyKindSpec => KINDS.find((k) => k.table === table)!;

/** A lab result's link to the file it was read from, where that file is restored too. */
function sourceOf(table: ClinicalTable, item: Item, fileIds: ReadonlyMap<string, string>): Record<string, unknown> {
  if (table !== 'lab_results' || typeof item.source_file_id !== 'string') return {};
  const fileId = fileIds.get(item.source_file_id);
  return fileId ? { source_file_id: fileId, source_page: typeof item.source_page === 'number' ? item.source_page : null } : {};
}

/**
 * The clinical items to add. `profileIds` maps each export profile to the account's (kinchart-match.ts);
 * `fileIds` each file this restore adds to its new id, so a lab result read from a file is linked
 * to it again (decision 0052; a file the account already held keeps no link). Refused whole when a
 * person would pass CLINICAL_CAP of a kind.
 */
export function restoreClinical(
  doc: KinchartExportParsed,
  profileIds: ReadonlyMap<string, string>,
  selfId: string,
  existing: ExistingClinical,
  fileIds: ReadonlyMap<string, string> = new Map(),
): ClinicalRestore {
  const counts: ClinicalCounts = { immunizations: 0, lab_results: 0, conditions: 0, procedures: 0 };
  const present: ClinicalCounts = { immunizations: 0, lab_results: 0, conditions: 0, procedures: 0 };
  const writes: ClinicalWrite[] = [];
  for (const table of Object.keys(ITEMS_OF) as ClinicalTable[]) {
    const spec = specOf(table);
    const key = clinicalKeyOf[table];
    for (const p of doc.profiles) {
      const items = ITEMS_OF[table](p);
      if (items.length === 0) continue;
      const profileId = profileIds.get(p.id) ?? selfId;
      const rows = existing[table].filter((r) => r.profile_id === profileId);
      // A multiset: two identical items held match two in the export; a third is new.
      const held = new Map<string, number>();
      for (const r of rows) held.set(key(r), (held.get(key(r)) ?? 0) + 1);
      const adding: ClinicalInsert[] = [];
      for (const item of items) {
        const k = key(item);
        const left = held.get(k) ?? 0;
        if (left > 0) {
          held.set(k, left - 1);
          present[table] += 1;
          continue;
        }
        adding.push({
          columns: { ...spec.columns(item), ...sourceOf(table, item, fileIds) },
          // kinchartExportSchema made it a list of codings (or left it out).
          codings: (item.codings as Coding[] | undefined) ?? [],
          created_at: String(item.created_at),
          updated_at: String(item.updated_at),
        });
      }
      if (adding.length === 0) continue;
      if (rows.length + adding.length > CLINICAL_CAP) {
        throw badRequest(
          `This import would give ${p.name ?? 'a family member'} more than ${CLINICAL_CAP} ${CLINICAL_LABELS[spec.kind].many.toLowerCase()}.`,
        );
      }
      counts[table] += adding.length;
      writes.push({ table, profileId, items: adding });
    }
  }
  return { writes, counts, present };
}
