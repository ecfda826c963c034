import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { getLocalNotifications } from '../../../lib/local-notifications';
import { makeMedicalFile } from '../testing/fixtures';
import { QuickUploadButton } from './quick-upload-button';
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

  it('sends the chosen file to /api/user/upload and toasts "Successfully uploaded {file name}"', async () => {
    const user = userEvent.setup();
    const filesUpdated = vi.fn();
    window.addEventListener('filesUpdated', filesUpdated);
    const { calls } = mockFetch((call) => (call.url === '/api/user/upload' ? json(makeMedicalFile('f1', 'x-ray', { originalname: 'x-ray.png', file_type: 'image/png' }), 201) : json([])));
    renderButton();
    await user.upload(screen.getByLabelText('Import', { selector: 'input' }), png());

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Successfully uploaded x-ray.png'));
    const sent = calls.find((c) => c.url === '/api/user/upload');
    expect(sent?.method).toBe('POST');
    expect((sent?.body as FormData).get('file')).toBeInstanceOf(File);
    expect(filesUpdated).toHaveBeenCalledTimes(1);
    expect(getLocalNotifications()[0]?.text).toMatch(/^File "x-ray.png" uploaded on /);
    window.removeEventListener('filesUpdated', filesUpdated);
  });

  it('toasts "Failed to upload file" when the upload fails', async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch((call) => (call.url === '/api/user/upload' ? json({ message: 'File is larger than 50 MB' }, 413) : json([])));
    renderButton();
    await user.upload(screen.getByLabelText('Import', { selector: 'input' }), png());
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to upload file'));
    expect(toast.success).not.toHaveBeenCalled();
  });
});
