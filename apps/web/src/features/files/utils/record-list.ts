import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { FileCategory, MedicalFile } from '@kinchart/shared/files';
import { fileCategory } from '@kinchart/shared/files';
import { activeIntlLocale } from './format';

// SPEC §2 View Records, §9: the type filter values and the four sorts.

export type TypeFilter = 'all' | FileCategory;

export const TYPE_FILTER_OPTIONS: readonly { value: TypeFilter; label: MessageDescriptor }[] = [
  { value: 'all', label: msg`All Types` },
  { value: 'pdf', label: msg`PDF` },
  { value: 'image', label: msg`Images` },
  { value: 'document', label: msg`Documents` },
];

export type SortOrder = 'date-desc' | 'date-asc' | 'name-asc' | 'name-desc';

export const SORT_OPTIONS: readonly { value: SortOrder; label: MessageDescriptor }[] = [
  { value: 'date-desc', label: msg`Date Descending` },
  { value: 'date-asc', label: msg`Date Ascending` },
  { value: 'name-asc', label: msg({ message: 'Name A-Z', comment: 'Sort by name, alphabetical order' }) },
  { value: 'name-desc', label: msg({ message: 'Name Z-A', comment: 'Sort by name, reverse alphabetical order' }) },
];

export interface RecordQuery {
  search: string;
  type: TypeFilter;
  sort: SortOrder;
}

export const DEFAULT_RECORD_QUERY: RecordQuery = { search: '', type: 'all', sort: 'date-desc' };

/** The name a person gave the record (the server fills every name field with it). */
export function recordName(file: MedicalFile): string {
  return file.display_name || file.name || file.originalname;
}

/** Issue 34: the review screen of the lab results found in a record's text. */
export const labResultsPath = (fileId: string): string => `/view-records/${encodeURIComponent(fileId)}/lab-results`;

/**
 * The moment a record is about, for sorting: the visit date when there is one, else the upload
 * time. A bare visit date sorts as the start of that day (UTC) so it compares with instants.
 */
export function recordTime(file: MedicalFile): number {
  const value = file.record_date ?? file.created_at;
  const time = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(time) ? 0 : time;
}

function matchesSearch(file: MedicalFile, needle: string): boolean {
  if (needle === '') return true;
  return [recordName(file), file.originalname, file.provider_name, file.visit_location, file.visit_reason].some(
    (text) => text?.toLocaleLowerCase().includes(needle) ?? false,
  );
}

export function matchesType(file: MedicalFile, type: TypeFilter): boolean {
  return type === 'all' || fileCategory(file.file_type) === type;
}

/** Names sort in the reader's alphabet (the pseudo-locale sorts as English). */
const collator = () => new Intl.Collator(activeIntlLocale(), { sensitivity: 'base', numeric: true });

function compare(sort: SortOrder): (a: MedicalFile, b: MedicalFile) => number {
  switch (sort) {
    case 'date-desc':
      return (a, b) => recordTime(b) - recordTime(a) || b.created_at.localeCompare(a.created_at);
    case 'date-asc':
      return (a, b) => recordTime(a) - recordTime(b) || a.created_at.localeCompare(b.created_at);
    case 'name-asc':
      return (a, b) => collator().compare(recordName(a), recordName(b));
    case 'name-desc':
      return (a, b) => collator().compare(recordName(b), recordName(a));
  }
}

/**
 * Search (name, provider, location, reason; case-insensitive), then the type filter, then the sort.
 * `matchedInside`: ids of files whose text matched the search (issue 33), kept beside those.
 */
export function selectRecords<T extends MedicalFile>(files: readonly T[], query: RecordQuery, matchedInside?: ReadonlySet<string>): T[] {
  const needle = query.search.trim().toLocaleLowerCase();
  return files
    .filter((f) => (matchesSearch(f, needle) || (matchedInside?.has(f.id) ?? false)) && matchesType(f, query.type))
    .sort(compare(query.sort));
}

/** SPEC §2 Dashboard: the newest uploads, at most `limit` (8). */
export function recentUploads<T extends MedicalFile>(files: readonly T[], limit = 8): T[] {
  return [...files].sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, limit);
}
