import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import type { MedicalFile } from '@kinchart/shared/files';
import { recentUploads, recordName, selectRecords, SORT_OPTIONS, TYPE_FILTER_OPTIONS } from './record-list';

function record(overrides: Partial<MedicalFile> & { id: string; name: string }): MedicalFile {
  return {
    record_id: overrides.id,
    file_name: overrides.name,
    display_name: overrides.name,
    originalname: `${overrides.name}.pdf`,
    file_type: 'application/pdf',
    url: `/api/user/files/${overrides.id}/content`,
    created_at: '2024-01-01T10:00:00.000Z',
    record_date: null,
    record_details: { provider_name: null, visit_location: null, visit_reason: null },
    provider_name: null,
    visit_location: null,
    visit_reason: null,
    metadata: { size: 100 },
    person_id: 'person-self',
    person_name: 'Pat Example',
    text_status: 'done',
    text_pages: 1,
    text_reason: null,
    suggestion: null,
    ...overrides,
  };
}

const files: MedicalFile[] = [
  record({ id: 'a', name: 'blood test', record_date: '2024-03-05', provider_name: 'Dr. Adams', created_at: '2024-03-06T09:00:00.000Z' }),
  record({ id: 'b', name: 'Chest X-ray', file_type: 'image/png', record_date: '2023-11-20', visit_location: 'City Hospital' }),
  record({
    id: 'c',
    name: 'allergy letter',
    file_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    record_date: null,
    created_at: '2024-05-01T08:00:00.000Z',
    visit_reason: 'Pollen allergy',
  }),
  record({ id: 'd', name: 'Scan 10', file_type: 'image/jpeg', record_date: '2024-03-05', created_at: '2024-03-07T09:00:00.000Z' }),
  record({ id: 'e', name: 'Scan 9', file_type: 'text/plain', record_date: '2022-01-01' }),
];

const ids = (list: MedicalFile[]) => list.map((f) => f.id);

describe('View Records search, type filter and sort', () => {
  it('offers the spec’s type filters and sorts, in order', () => {
    expect(TYPE_FILTER_OPTIONS.map((o) => i18n._(o.label))).toEqual(['All Types', 'PDF', 'Images', 'Documents']);
    expect(TYPE_FILTER_OPTIONS.map((o) => o.value)).toEqual(['all', 'pdf', 'image', 'document']);
    expect(SORT_OPTIONS.map((o) => i18n._(o.label))).toEqual(['Date Descending', 'Date Ascending', 'Name A-Z', 'Name Z-A']);
  });

  it('sorts newest first by default, using the visit date, else the upload time', () => {
    // c has no visit date: it sorts by its upload time (May 2024). a and d share a visit date: the later upload first.
    expect(ids(selectRecords(files, { search: '', type: 'all', sort: 'date-desc' }))).toEqual(['c', 'd', 'a', 'b', 'e']);
    expect(ids(selectRecords(files, { search: '', type: 'all', sort: 'date-asc' }))).toEqual(['e', 'b', 'a', 'd', 'c']);
  });

  it('sorts by name ignoring case and comparing numbers as numbers', () => {
    expect(ids(selectRecords(files, { search: '', type: 'all', sort: 'name-asc' }))).toEqual(['c', 'a', 'b', 'e', 'd']);
    expect(ids(selectRecords(files, { search: '', type: 'all', sort: 'name-desc' }))).toEqual(['d', 'e', 'b', 'a', 'c']);
  });

  it('filters by type: PDF, Images, Documents', () => {
    expect(ids(selectRecords(files, { search: '', type: 'pdf', sort: 'name-asc' }))).toEqual(['a']);
    expect(ids(selectRecords(files, { search: '', type: 'image', sort: 'name-asc' }))).toEqual(['b', 'd']);
    expect(ids(selectRecords(files, { search: '', type: 'document', sort: 'name-asc' }))).toEqual(['c', 'e']);
  });

  it('searches names, provider, location and reason without regard to case or surrounding spaces', () => {
    expect(ids(selectRecords(files, { search: '  X-RAY ', type: 'all', sort: 'name-asc' }))).toEqual(['b']);
    expect(ids(selectRecords(files, { search: 'adams', type: 'all', sort: 'name-asc' }))).toEqual(['a']);
    expect(ids(selectRecords(files, { search: 'city hosp', type: 'all', sort: 'name-asc' }))).toEqual(['b']);
    expect(ids(selectRecords(files, { search: 'pollen', type: 'all', sort: 'name-asc' }))).toEqual(['c']);
    expect(ids(selectRecords(files, { search: 'scan', type: 'image', sort: 'name-asc' }))).toEqual(['d']);
    expect(selectRecords(files, { search: 'nothing like this', type: 'all', sort: 'date-desc' })).toEqual([]);
  });

  it('does not reorder the list it was given', () => {
    const before = ids(files);
    selectRecords(files, { search: '', type: 'all', sort: 'name-desc' });
    expect(ids(files)).toEqual(before);
  });

  it('names a record by the name the person gave it', () => {
    expect(recordName(record({ id: 'x', name: 'Given', originalname: 'upload.pdf' }))).toBe('Given');
  });
});

describe('dashboard recent uploads', () => {
  it('shows the newest uploads first, at most 8', () => {
    const many = Array.from({ length: 12 }, (_, i) =>
      record({ id: `f${i}`, name: `File ${i}`, created_at: new Date(Date.UTC(2024, 0, i + 1)).toISOString() }),
    );
    const recent = recentUploads(many);
    expect(recent).toHaveLength(8);
    expect(ids(recent)).toEqual(['f11', 'f10', 'f9', 'f8', 'f7', 'f6', 'f5', 'f4']);
  });
});
