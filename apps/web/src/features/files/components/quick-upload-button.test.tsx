import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { getLocalNotifications } from '../../../lib/local-notifications';
import { makeMedicalFile } from '../testing/fixtures';
import { QuickUploadButton } from './quick-upload-button';
import { setSelectedPersonId } from '../../../lib/selected-person';
import { makeFamilyPerson, makeSelf } from '../../../../test/people';
import { notify } from '../../../lib/toast';

vi.mock('../../../lib/toast');
const toast = vi.mocked(notify);

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'x-ray.png', { type: 'image/png' });

function renderButton() {
  renderRoutes([{ path: '/', element: <QuickUploadButton label="Import" className="" /> }], '/');
}

beforeEach(() => {
  for (const fn of Object.values(toast)) fn.mockReset();
  localStorage.clear();
});

describe('navigation bar upload', () => {
  it('opens the file picker from its button', async () => {
    const user = userEvent.setup();
    mockFetch(() => json([]));
    renderButton();
    const input = screen.getByLabelText<HTMLInputElement>('Import', { selector: 'input' });
    const click = vi.spyOn(input, 'click');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(click).toHaveBeenCalled();
  });

  it('sends the chosen file to /api/user/upload and toasts "Successfully uploaded {file name}" and whose it is', async () => {
    const user = userEvent.setup();
    const filesUpdated = vi.fn();
    window.addEventListener('filesUpdated', filesUpdated);
    const { calls } = mockFetch((call) =>
      call.url === '/api/user/upload'
        ? json(makeMedicalFile('f1', 'x-ray', { originalname: 'x-ray.png', file_type: 'image/png' }), 201)
        : json([]),
    );
    renderButton();
    await user.upload(screen.getByLabelText('Import', { selector: 'input' }), png());

    // No people list to name them from: the answer's name of the person.
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Successfully uploaded x-ray.png for Pat Example'));
    const sent = calls.find((c) => c.url === '/api/user/upload');
    expect(sent?.method).toBe('POST');
    expect((sent?.body as FormData).get('file')).toBeInstanceOf(File);
    expect(filesUpdated).toHaveBeenCalledTimes(1);
    expect(getLocalNotifications()[0]?.text).toMatch(/^File "x-ray.png" uploaded on /);
    window.removeEventListener('filesUpdated', filesUpdated);
  });

  it('toasts "Failed to upload file" with the server’s reason when the upload fails', async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch((call) => (call.url === '/api/user/upload' ? json({ message: 'File is larger than 50 MB' }, 413) : json([])));
    renderButton();
    await user.upload(screen.getByLabelText('Import', { selector: 'input' }), png());
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to upload file: File is larger than 50 MB'));
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('uploads for the person chosen on the dashboard, and the toast says whose record it is', async () => {
    const user = userEvent.setup();
    setSelectedPersonId('child-1');
    const { calls } = mockFetch((call) => {
      if (call.url === '/api/user/people') return json([makeSelf(), makeFamilyPerson('child-1', { name: 'Mia Example' })]);
      if (call.url === '/api/user/upload')
        return json(makeMedicalFile('f1', 'x-ray', { person_id: 'child-1', person_name: 'Mia Example' }), 201);
      return json({ message: 'Not found' }, 404);
    });
    renderButton();
    await user.upload(screen.getByLabelText('Import', { selector: 'input' }), png());

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Successfully uploaded x-ray.png for Mia Example'));
    const body = calls.find((c) => c.url === '/api/user/upload')?.body as FormData;
    // The person comes before the file (the server seals the file for its owner as it arrives).
    expect([...body.keys()]).toEqual(['personId', 'file']);
    expect(body.get('personId')).toBe('child-1');
    setSelectedPersonId(null);
  });

  it('says "for you" when the record is your own', async () => {
    const user = userEvent.setup();
    mockFetch((call) => {
      if (call.url === '/api/user/people') return json([makeSelf()]);
      if (call.url === '/api/user/upload')
        return json(makeMedicalFile('f1', 'x-ray', { person_id: 'self-1', person_name: 'Alice Example' }), 201);
      return json({ message: 'Not found' }, 404);
    });
    renderButton();
    await user.upload(screen.getByLabelText('Import', { selector: 'input' }), png());
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Successfully uploaded x-ray.png for you'));
  });

  it('a file over the server’s limit is refused before sending, and the toast names the limit', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch((call) => {
      if (call.url === '/api/config') return json({ max_upload_bytes: 1024 * 1024, signup_mode: 'open', passkeys: false, sso: null });
      if (call.url === '/api/user/people') return json([makeSelf()]);
      return json(makeMedicalFile('f1', 'big'), 201);
    });
    renderButton();
    const big = new File([new Uint8Array(1024 * 1024 + 1)], 'big-scan.pdf', { type: 'application/pdf' });
    await user.upload(screen.getByLabelText('Import', { selector: 'input' }), big);
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Failed to upload file: big-scan.pdf is larger than 1 MB, the most this server accepts.'),
    );
    expect(calls.some((c) => c.url === '/api/user/upload')).toBe(false);
  });
});
