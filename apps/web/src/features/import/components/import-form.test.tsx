import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { ImportForm, importedLines } from './import-form';
import { makeMemberSummary } from '../../profiles/testing/fixtures';

/** A stand-in XMLHttpRequest that records what was sent and answers with `reply`. */
function fakeXhr(reply: { status: number; body: unknown }) {
  const sent: { url: string; body: FormData; withCredentials: boolean }[] = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    withCredentials = false;
    upload: { onprogress: ((e: ProgressEvent) => void) | null; onload: (() => void) | null } = { onprogress: null, onload: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    private url = '';
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader() {}
    send(body: FormData) {
      sent.push({ url: this.url, body, withCredentials: this.withCredentials });
      this.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 } as ProgressEvent);
      setTimeout(() => {
        this.upload.onload?.();
        this.status = reply.status;
        this.responseText = JSON.stringify(reply.body);
        this.onload?.();
      }, 10);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

const RESULT = {
  message: 'Import complete.',
  format: 'kinchart',
  imported: {
    family_members: 2,
    allergies: 0,
    conditions: 1,
    immunizations: 2,
    lab_results: 3,
    procedures: 0,
    emergency_contacts: 1,
    healthcare_providers: 0,
    medications: 3,
    appointments: 0,
    notifications: 0,
    files: 1,
  },
  already_present: {
    family_members: 0,
    emergency_contacts: 0,
    healthcare_providers: 0,
    medications: 0,
    immunizations: 0,
    lab_results: 0,
    conditions: 0,
    procedures: 0,
    appointments: 0,
    notifications: 0,
    files: 0,
  },
  skipped: [],
};

const NOTHING = {
  family_members: 0,
  allergies: 0,
  conditions: 0,
  immunizations: 0,
  lab_results: 0,
  procedures: 0,
  emergency_contacts: 0,
  healthcare_providers: 0,
  medications: 0,
  appointments: 0,
  notifications: 0,
  files: 0,
};

describe('Import form', () => {
  it('lists what came in, in words', () => {
    expect(importedLines(RESULT.imported)).toEqual([
      '2 family members',
      '1 condition',
      '1 emergency contact',
      '3 medications',
      '2 immunizations',
      '3 lab results and vital signs',
      '1 file',
    ]);
  });

  it('restores an export zip: says what will happen, sends the file with the session, then shows what came in', async () => {
    mockFetch(() => json([]));
    const sent = fakeXhr({ status: 200, body: RESULT });
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <ImportForm /> }], '/');
    const button = screen.getByRole('button', { name: 'Import' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    const zip = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'kinchart-export-2026-11-21.zip', { type: 'application/zip' });
    await user.upload(screen.getByLabelText('File to import'), zip);
    expect(screen.getByText(/replaces your own profile with the one in the export/)).toBeTruthy();
    expect(screen.queryByLabelText('Import into')).toBeNull();
    await user.click(button);
    expect(await screen.findByText('Import complete.')).toBeTruthy();
    expect(screen.getByText('3 medications')).toBeTruthy();
    expect(sent[0]!.url).toBe('/api/user/import');
    expect(sent[0]!.withCredentials).toBe(true);
    expect(sent[0]!.body.get('file')).toBe(zip);
    expect(sent[0]!.body.get('profileId')).toBe('self');
  });

  it('asks whose a FHIR Bundle is, offering My Profile and each family member', async () => {
    mockFetch((call) => (call.url === '/api/user/family/members' ? json([makeMemberSummary('m1', { name: 'Rex', is_pet: true })]) : json({}, 404)));
    const sent = fakeXhr({ status: 200, body: { ...RESULT, format: 'fhir', skipped: ['1 Immunization (not something Kinchart keeps)'] } });
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <ImportForm /> }], '/');
    await user.upload(screen.getByLabelText('File to import'), new File(['{}'], 'summary.json', { type: 'application/json' }));
    const select = await screen.findByLabelText('Import into');
    await screen.findByRole('option', { name: 'Rex (pet)' });
    await user.selectOptions(select, 'm1');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('1 Immunization (not something Kinchart keeps)')).toBeTruthy();
    expect(sent[0]!.body.get('profileId')).toBe('m1');
  });

  it('a user who imports the same export again is told that nothing was added and what was already there', async () => {
    mockFetch(() => json([]));
    fakeXhr({
      status: 200,
      body: {
        ...RESULT,
        imported: NOTHING,
        already_present: {
          family_members: 3,
          emergency_contacts: 1,
          healthcare_providers: 0,
          medications: 4,
          immunizations: 2,
          lab_results: 0,
          conditions: 1,
          procedures: 1,
          appointments: 2,
          notifications: 0,
          files: 1,
        },
      },
    });
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <ImportForm /> }], '/');
    await user.upload(screen.getByLabelText('File to import'), new File(['PK'], 'again.zip', { type: 'application/zip' }));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Nothing new: everything in the file was already here.')).toBeTruthy();
    const present = screen.getByRole('list', { name: 'Already here, not added again' });
    expect(within(present).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '3 family members',
      '1 condition',
      '1 emergency contact',
      '4 medications',
      '2 immunizations',
      '1 procedure',
      '2 appointments',
      '1 file',
    ]);
  });

  it("shows the server's reason when the import is refused", async () => {
    mockFetch(() => json([]));
    fakeXhr({ status: 400, body: { message: 'This export is format version 3, newer than this Kinchart can read (version 2). Update Kinchart and import it again.' } });
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <ImportForm /> }], '/');
    await user.upload(screen.getByLabelText('File to import'), new File(['PK'], 'old.zip', { type: 'application/zip' }));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Import failed: This export is format version 3, newer than this Kinchart can read (version 2). Update Kinchart and import it again.'));
  });
});
