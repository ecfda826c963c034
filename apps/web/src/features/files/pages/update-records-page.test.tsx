import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { makeMedicalFile } from '../testing/fixtures';
import { UpdateRecordsPage } from './update-records-page';
import { FakeXhr } from '../testing/fake-xhr';

const pdf = (name: string) => new File(['%PDF-1.4 tiny'], name, { type: 'application/pdf' });
const BANNER = /^Uploaded “.*” successfully\./;

beforeEach(() => {
  FakeXhr.last = undefined;
  FakeXhr.all = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  mockFetch((call) =>
    call.url === '/api/config' ? json({ max_upload_bytes: 50 * 1024 * 1024, signup_mode: 'open', passkeys: true }) : json([]),
  );
});

describe('Upload Medical Records page', () => {
  it('the green "Uploaded" banner of the last file goes away when the next upload starts, so it never sits above a failure', async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    renderRoutes([{ path: '/update-records', element: <UpdateRecordsPage /> }], '/update-records');

    await user.upload(screen.getByLabelText('File'), pdf('first.pdf'));
    await user.click(screen.getByRole('button', { name: 'Upload File' }));
    FakeXhr.last!.respond(201, makeMedicalFile('f1', 'first'));
    expect(await screen.findByText(BANNER)).toBeTruthy();

    await user.upload(screen.getByLabelText('File'), pdf('second.pdf'));
    expect(screen.queryByText(BANNER)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Upload File' }));
    FakeXhr.last!.respond(415, { message: 'This file type is not supported.' });
    const row = screen.getByRole('listitem', { name: 'second.pdf' });
    await waitFor(() => expect(within(row).getByRole('alert').textContent).toBe('Error uploading file: This file type is not supported.'));
    expect(screen.queryByText(BANNER)).toBeNull();
  });
});
