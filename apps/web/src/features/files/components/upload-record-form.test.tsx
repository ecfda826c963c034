import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MedicalFile } from '@kinchart/shared/files';
import { makeFamilyPerson, makeSelf, makeSharedPerson } from '../../../../test/people';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { getLocalNotifications } from '../../../lib/local-notifications';
import { setSelectedPersonId } from '../../../lib/selected-person';
import { localToday } from '../utils/format';
import { UploadRecordForm } from './upload-record-form';
import { FakeXhr } from '../testing/fake-xhr';

const stored: MedicalFile = {
  id: 'f1',
  record_id: 'f1',
  name: 'Blood work',
  file_name: 'Blood work',
  display_name: 'Blood work',
  originalname: 'blood-work.final.pdf',
  file_type: 'application/pdf',
  url: '/api/user/files/f1/content',
  created_at: '2024-03-05T10:00:00.000Z',
  record_date: '2024-03-05',
  record_details: { provider_name: 'Dr. Adams', visit_location: null, visit_reason: null },
  provider_name: 'Dr. Adams',
  visit_location: null,
  visit_reason: null,
  metadata: { size: 12 },
  person_id: 'person-self',
  person_name: 'Pat Example',
  text_status: 'done',
  text_pages: 1,
  text_reason: null,
  suggestion: null,
};

function pdf(name = 'blood-work.final.pdf') {
  return new File(['%PDF-1.4 tiny'], name, { type: 'application/pdf' });
}

function renderForm(onUploaded = vi.fn()) {
  const utils = renderRoutes([{ path: '/', element: <UploadRecordForm onUploaded={onUploaded} /> }], '/');
  return { ...utils, onUploaded };
}

const fileInput = () => screen.getByLabelText<HTMLInputElement>('File');
const uploadButton = () => screen.getByRole('button', { name: 'Upload File' });
const value = (label: string) => screen.getByLabelText<HTMLInputElement>(label).value;

beforeEach(() => {
  FakeXhr.last = undefined;
  FakeXhr.all = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  // The server's default upload limit (MAX_UPLOAD_MB=50); everything else answers an empty list.
  mockFetch((call) =>
    call.url === '/api/config' ? json({ max_upload_bytes: 50 * 1024 * 1024, signup_mode: 'open', passkeys: true }) : json([]),
  );
  localStorage.clear();
  setSelectedPersonId(null);
});

describe('upload form', () => {
  it('says what it accepts and that files are encrypted, and starts with only the picker', () => {
    renderForm();
    expect(screen.getByText(/Supports PDF, JPG, PNG, DOCX and others/)).toBeTruthy();
    expect(screen.getByText(/securely stored and encrypted/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Record Details' })).toBeTruthy();
    expect(screen.queryByLabelText('Record Name')).toBeNull();
    expect(screen.queryByLabelText('Visit Date')).toBeNull();
  });

  it('keeps Upload File disabled until a file is chosen, and submitting without one sends nothing', () => {
    renderForm();
    expect(uploadButton()).toHaveProperty('disabled', true);
    fireEvent.submit(uploadButton().closest('form')!);
    expect(FakeXhr.last).toBeUndefined();
  });

  it('choosing a file pre-fills Record Name without the extension and Visit Date with today, and reveals the details', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.upload(fileInput(), pdf());

    expect(value('Record Name')).toBe('blood-work.final');
    expect(value('Visit Date')).toBe(localToday());
    expect(value('Visit Date')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(screen.getByLabelText('Healthcare Provider')).toBeTruthy();
    expect(screen.getByLabelText('Visit Location')).toBeTruthy();
    expect(screen.getByLabelText('Reason for Visit')).toBeTruthy();
    expect(uploadButton()).toHaveProperty('disabled', false);
  });

  it('a file dropped on the drop zone is chosen the same way', () => {
    renderForm();
    const file = pdf('scan.png');
    fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files: [file], dropEffect: 'copy' } });
    expect(value('Record Name')).toBe('scan');
    expect(value('Visit Date')).toBe(localToday());
  });

  it('uploads with progress, disables the form meanwhile, then resets and tells everyone', async () => {
    const user = userEvent.setup();
    const { onUploaded } = renderForm();
    const filesUpdated = vi.fn();
    window.addEventListener('filesUpdated', filesUpdated);

    await user.upload(fileInput(), pdf());
    await user.clear(screen.getByLabelText('Record Name'));
    await user.type(screen.getByLabelText('Record Name'), 'Blood work');
    await user.type(screen.getByLabelText('Healthcare Provider'), 'Dr. Adams');
    await user.type(screen.getByLabelText('Visit Location'), 'City Clinic');
    await user.type(screen.getByLabelText('Reason for Visit'), 'Annual check');
    await user.click(uploadButton());

    const xhr = FakeXhr.last!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/user/files');
    expect(xhr.withCredentials).toBe(true);
    const sent = xhr.body!;
    expect([...sent.keys()]).toEqual(['file', 'customName', 'customDate', 'visitLocation', 'visitReason', 'providerName']);
    expect((sent.get('file') as File).name).toBe('blood-work.final.pdf');
    expect(sent.get('customName')).toBe('Blood work');
    expect(sent.get('customDate')).toBe(localToday());
    expect(sent.get('providerName')).toBe('Dr. Adams');
    expect(sent.get('visitLocation')).toBe('City Clinic');
    expect(sent.get('visitReason')).toBe('Annual check');

    // Busy: the button says so and every control is disabled.
    expect(screen.getByRole('button', { name: 'Uploading...' })).toHaveProperty('disabled', true);
    // The fieldset disables them, so ask what the browser would: does :disabled match?
    expect(screen.getByLabelText('Record Name').matches(':disabled')).toBe(true);
    expect(screen.getByLabelText('Reason for Visit').matches(':disabled')).toBe(true);
    expect(fileInput().matches(':disabled')).toBe(true);
    expect(screen.getByTestId('drop-zone')).toHaveProperty('disabled', true);

    xhr.progress(30, 120);
    const bar = await screen.findByLabelText('Upload progress of blood-work.final.pdf');
    await waitFor(() => expect((bar as HTMLProgressElement).value).toBe(25));

    xhr.respond(201, stored);
    await waitFor(() => expect(onUploaded).toHaveBeenCalledWith(stored));
    expect(screen.queryByLabelText('Record Name')).toBeNull();
    expect(screen.queryByLabelText(/^Upload progress/)).toBeNull();
    expect(fileInput().value).toBe('');
    expect(uploadButton()).toHaveProperty('disabled', true);
    expect(filesUpdated).toHaveBeenCalledTimes(1);
    expect(getLocalNotifications()[0]?.text).toMatch(/^File "Blood work" uploaded on .+/);
    expect(getLocalNotifications()[0]?.isRead).toBe(false);
    window.removeEventListener('filesUpdated', filesUpdated);
  });

  it('sends the current time when Visit Date was emptied', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.upload(fileInput(), pdf());
    await user.clear(screen.getByLabelText('Visit Date'));
    await user.click(uploadButton());
    const sentDate = FakeXhr.last!.body!.get('customDate') as string;
    expect(sentDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Math.abs(Date.parse(sentDate) - Date.now())).toBeLessThan(60_000);
  });

  it('a failure says "Error uploading file: " with the server message once, beside the file (no browser alert), logs it and keeps the form', async () => {
    const user = userEvent.setup();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { onUploaded } = renderForm();
    await user.upload(fileInput(), pdf());
    await user.click(uploadButton());
    FakeXhr.last!.respond(415, { message: 'This file type is not supported.' });

    const row = screen.getByRole('listitem', { name: 'blood-work.final.pdf' });
    await waitFor(() => expect(within(row).getByRole('alert').textContent).toBe('Error uploading file: This file type is not supported.'));
    expect(screen.getAllByText(/This file type is not supported/)).toHaveLength(1);
    expect(alert).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalled();
    expect(onUploaded).not.toHaveBeenCalled();
    expect(value('Record Name')).toBe('blood-work.final');
    expect(uploadButton()).toHaveProperty('disabled', false);
  });

  it('a network failure says so with the client error text', async () => {
    const user = userEvent.setup();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderForm();
    await user.upload(fileInput(), pdf());
    await user.click(uploadButton());
    FakeXhr.last!.onerror?.();
    const row = screen.getByRole('listitem', { name: 'blood-work.final.pdf' });
    await waitFor(() => expect(within(row).getByRole('alert').textContent).toBe('Error uploading file: Network Error'));
    expect(alert).not.toHaveBeenCalled();
  });

  it('states the server’s limit and refuses a file over it in the browser, sending nothing', async () => {
    mockFetch((call) =>
      call.url === '/api/config' ? json({ max_upload_bytes: 1024 * 1024, signup_mode: 'open', passkeys: true }) : json([]),
    );
    const user = userEvent.setup();
    renderForm();
    await waitFor(() => expect(screen.getByTestId('drop-zone').textContent).toContain('Up to 1 MB per file.'));
    const hint = document.getElementById(fileInput().getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toContain('Up to 1 MB per file.');
    await user.upload(fileInput(), new File([new Uint8Array(1024 * 1024 + 1)], 'scan.pdf', { type: 'application/pdf' }));
    const row = screen.getByRole('listitem', { name: 'scan.pdf' });
    expect(within(row).getByText('File is larger than 1 MB')).toBeTruthy();
    expect(uploadButton()).toHaveProperty('disabled', true);
    fireEvent.submit(uploadButton().closest('form')!);
    expect(FakeXhr.all).toHaveLength(0);
  });

  it('a user picks several files at once; each gets its own row, progress and result', async () => {
    const user = userEvent.setup();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { onUploaded } = renderForm();
    expect(fileInput().multiple).toBe(true);
    await user.upload(fileInput(), [pdf('lab.pdf'), pdf('xray.png')]);
    expect(screen.getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))).toEqual(['lab.pdf', 'xray.png']);
    // Several files: each record is named after its own file.
    expect(screen.queryByLabelText('Record Name')).toBeNull();
    await user.type(screen.getByLabelText('Healthcare Provider'), 'Dr. Adams');
    await user.click(uploadButton());

    const first = FakeXhr.all[0]!;
    expect(first.body!.get('customName')).toBe('lab');
    expect(first.body!.get('providerName')).toBe('Dr. Adams');
    first.progress(50, 100);
    const bar = await screen.findByLabelText('Upload progress of lab.pdf');
    await waitFor(() => expect((bar as HTMLProgressElement).value).toBe(50));
    first.respond(201, { ...stored, id: 'f1', name: 'lab' });

    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    const second = FakeXhr.all[1]!;
    expect(second.body!.get('customName')).toBe('xray');
    // The server refuses it while it is still being sent: its message shows, the form settles.
    second.progress(92, 100);
    second.respond(413, { message: 'File is larger than 50 MB' });

    await waitFor(() =>
      expect(within(screen.getByRole('listitem', { name: 'xray.png' })).getByRole('alert').textContent).toBe(
        'Error uploading file: File is larger than 50 MB',
      ),
    );
    expect(alert).not.toHaveBeenCalled();
    expect(within(screen.getByRole('listitem', { name: 'lab.pdf' })).getByText('Uploaded')).toBeTruthy();
    expect(onUploaded).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Uploading...' })).toBeNull();
    // The refused file stays chosen, so Upload File tries it again.
    expect(uploadButton()).toHaveProperty('disabled', false);
  });

  it('Cancel aborts the upload and the form leaves "Uploading..."', async () => {
    const user = userEvent.setup();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const { onUploaded } = renderForm();
    await user.upload(fileInput(), pdf());
    await user.click(uploadButton());
    FakeXhr.last!.progress(40, 100);
    await user.click(screen.getByRole('button', { name: 'Cancel upload' }));

    expect(FakeXhr.last!.aborted).toBe(true);
    expect(await screen.findByRole('button', { name: 'Upload File' })).toHaveProperty('disabled', false);
    expect(within(screen.getByRole('listitem', { name: 'blood-work.final.pdf' })).getByText('Cancelled')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel upload' })).toBeNull();
    expect(alert).not.toHaveBeenCalled();
    expect(onUploaded).not.toHaveBeenCalled();
    expect(value('Record Name')).toBe('blood-work.final');
  });

  describe('"For": whose record it is', () => {
    const people = [
      makeSelf('me', { name: 'Pat Example' }),
      makeFamilyPerson('mia', { name: 'Mia' }),
      makeSharedPerson('joe', { name: 'Grandpa Joe', shared_by: 'sam', role: 'editor' }),
      makeSharedPerson('ann', { name: 'Aunt Ann', shared_by: 'kim', role: 'viewer' }),
    ];
    const servePeople = () => mockFetch((call) => (call.url === '/api/user/people' ? json(people) : json([])));
    const forChoice = () => screen.findByRole<HTMLSelectElement>('combobox', { name: 'For' });

    it('offers yourself, your family and the people shared with you as editor or more — not those you only view', async () => {
      servePeople();
      renderForm();
      const select = await forChoice();
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Pat Example (you)', 'Mia', 'Grandpa Joe (Shared by sam)']);
    });

    it('starts on yourself, and the choice goes with the upload before the file part', async () => {
      servePeople();
      const user = userEvent.setup();
      renderForm();
      expect((await forChoice()).value).toBe('me');
      await user.selectOptions(await forChoice(), 'joe');
      await user.upload(fileInput(), pdf());
      await user.click(uploadButton());
      const sent = FakeXhr.last!.body!;
      expect(sent.get('personId')).toBe('joe');
      expect([...sent.keys()].slice(0, 2)).toEqual(['personId', 'file']);
    });

    it('starts on the person chosen on the dashboard', async () => {
      setSelectedPersonId('mia');
      servePeople();
      renderForm();
      await waitFor(async () => expect((await forChoice()).value).toBe('mia'));
    });

    it('a person chosen on the dashboard whom the user only views is not the default: yourself is', async () => {
      setSelectedPersonId('ann');
      servePeople();
      renderForm();
      expect((await forChoice()).value).toBe('me');
    });

    it('is not asked when there is nobody but yourself, and then no person is sent', async () => {
      mockFetch((call) => (call.url === '/api/user/people' ? json([people[0]]) : json([])));
      const user = userEvent.setup();
      renderForm();
      await user.upload(fileInput(), pdf());
      await user.click(uploadButton());
      expect(screen.queryByRole('combobox', { name: 'For' })).toBeNull();
      expect(FakeXhr.last!.body!.get('personId')).toBe('me');
    });
  });
});
