import type { MedicalFile } from '@kinchart/shared/files';

/** A record shaped exactly like the server's answer (the shared medicalFileSchema), for unit tests. */
export function makeMedicalFile(id: string, name: string, overrides: Partial<MedicalFile> = {}): MedicalFile {
  return {
    id,
    record_id: id,
    name,
    file_name: name,
    display_name: name,
    originalname: `${name}.pdf`,
    file_type: 'application/pdf',
    url: `/api/user/files/${id}/content`,
    created_at: '2024-01-01T10:00:00.000Z',
    record_date: '2024-01-01',
    record_details: { provider_name: null, visit_location: null, visit_reason: null },
    provider_name: null,
    visit_location: null,
    visit_reason: null,
    metadata: { size: 2048 },
    person_id: 'person-self',
    person_name: 'Pat Example',
    text_status: 'done',
    text_pages: 1,
    text_reason: null,
    suggestion: null,
    ...overrides,
  };
}
