import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { ImportForm, importedLines } from './import-form';
import { makeMemberSummary } from '../../../../test/profiles';

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
  report: [],
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
    mockFetch((call) =>
      call.url === '/api/user/family/members' ? json([makeMemberSummary('m1', { name: 'Rex', is_pet: true })]) : json({}, 404),
    );
    const sent = fakeXhr({ status: 200, body: { ...RESULT, format: 'fhir', skipped: ['1 Goal (not something Kinchart keeps)'] } });
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <ImportForm /> }], '/');
    await user.upload(screen.getByLabelText('File to import'), new File(['{}'], 'summary.json', { type: 'application/json' }));
    const select = await screen.findByLabelText('Import into');
    await screen.findByRole('option', { name: 'Rex (pet)' });
    await user.selectOptions(select, 'm1');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('1 Goal (not something Kinchart keeps)')).toBeTruthy();
    expect(sent[0]!.body.get('profileId')).toBe('m1');
  });

  it('a user who imports a FHIR Bundle sees, per resource type, what was imported, merged, already here and left out, and why', async () => {
    mockFetch(() => json([]));
    fakeXhr({
      status: 200,
      body: {
        ...RESULT,
        format: 'fhir',
        imported: { ...NOTHING, allergies: 3, medications: 2, immunizations: 8, lab_results: 39 },
        skipped: [
          '5 Observation in category survey (Kinchart keeps laboratory results and vital signs)',
          '18 Claim (not something Kinchart keeps)',
        ],
        report: [
          {
            resource_type: 'Patient',
            imported: 0,
            merged: 1,
            already_present: 0,
            dropped: [],
            parts_left_out: [{ reason: 'birth date without a day (Kinchart keeps full dates)', count: 1 }],
          },
          { resource_type: 'Immunization', imported: 8, merged: 0, already_present: 1, dropped: [], parts_left_out: [] },
          {
            resource_type: 'Observation',
            imported: 39,
            merged: 0,
            already_present: 0,
            dropped: [
              { reason: 'in category survey (Kinchart keeps laboratory results and vital signs)', count: 5 },
              { reason: 'not valid FHIR (valueQuantity.value: must be number)', count: 1 },
            ],
            parts_left_out: [],
          },
          {
            resource_type: 'Claim',
            imported: 0,
            merged: 0,
            already_present: 0,
            dropped: [{ reason: 'not imported by Kinchart', count: 18 }],
            parts_left_out: [],
          },
        ],
      },
    });
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <ImportForm /> }], '/');
    await user.upload(screen.getByLabelText('File to import'), new File(['{}'], 'synthea.json', { type: 'application/json' }));
    await user.click(await screen.findByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Import complete.')).toBeTruthy();
    // The summary names the clinical records too.
    const summary = screen.getByText('Import complete.').parentElement!;
    expect(
      within(summary)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['2 medications', '8 immunizations', '39 lab results and vital signs']);

    const table = screen.getByRole('table', { name: 'What the file held, by resource type' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Resource type', 'Imported', 'Merged', 'Already here', 'Left out']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((tr) => [
        within(tr).getByRole('rowheader').textContent,
        ...within(tr)
          .getAllByRole('cell')
          .map((td) => td.textContent),
      ]);
    expect(rows).toEqual([
      ['Patient', '0', '1', '0', '0'],
      ['Immunization', '8', '0', '1', '0'],
      ['Observation', '39', '0', '0', '6'],
      ['Claim', '0', '0', '0', '18'],
    ]);
    const why = screen.getByRole('list', { name: 'Left out, and why' });
    expect(
      within(why)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Patient: part left out: birth date without a day (Kinchart keeps full dates)',
      'Observation: 5 left out: in category survey (Kinchart keeps laboratory results and vital signs)',
      'Observation: 1 left out: not valid FHIR (valueQuantity.value: must be number)',
      'Claim: 18 left out: not imported by Kinchart',
    ]);
    // The older one-line list says the same things: it is not shown twice.
    expect(screen.queryByText('18 Claim (not something Kinchart keeps)')).toBeNull();
    // The table can be scrolled with the keyboard on a narrow screen.
    expect(screen.getByRole('region', { name: 'What the file held, by resource type' }).tabIndex).toBe(0);
  });

  it('a user who imports a FHIR Bundle twice is told nothing was new, with the report saying it per resource type', async () => {
    mockFetch(() => json([]));
    fakeXhr({
      status: 200,
      body: {
        ...RESULT,
        format: 'fhir',
        imported: { ...NOTHING, allergies: 1 },
        already_present: { ...RESULT.already_present, medications: 1 },
        report: [
          { resource_type: 'AllergyIntolerance', imported: 0, merged: 0, already_present: 1, dropped: [], parts_left_out: [] },
          { resource_type: 'Immunization', imported: 0, merged: 0, already_present: 2, dropped: [], parts_left_out: [] },
        ],
      },
    });
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <ImportForm /> }], '/');
    await user.upload(screen.getByLabelText('File to import'), new File(['{}'], 'again.json', { type: 'application/json' }));
    await user.click(await screen.findByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Nothing new: everything in the file was already here.')).toBeTruthy();
    expect(screen.queryByText('1 allergy')).toBeNull();
    const row = within(screen.getByRole('table', { name: 'What the file held, by resource type' })).getByRole('row', {
      name: /Immunization/,
    });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['0', '0', '2', '0']);
    expect(screen.queryByRole('list', { name: 'Left out, and why' })).toBeNull();
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
    expect(
      within(present)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
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
    fakeXhr({
      status: 400,
      body: {
        message: 'This export is format version 3, newer than this Kinchart can read (version 2). Update Kinchart and import it again.',
      },
    });
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <ImportForm /> }], '/');
    await user.upload(screen.getByLabelText('File to import'), new File(['PK'], 'old.zip', { type: 'application/zip' }));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'Import failed: This export is format version 3, newer than this Kinchart can read (version 2). Update Kinchart and import it again.',
      ),
    );
  });
});
