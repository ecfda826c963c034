import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { makeMedicalFile } from '../testing/fixtures';
import { ViewFilesModal } from './view-files-modal';
import { notify } from '../../../lib/toast';

vi.mock('../../../lib/toast');
const toast = vi.mocked(notify);

function record(id: string, name: string, size: number) {
  return makeMedicalFile(id, name, { created_at: '2024-03-05T10:00:00.000Z', record_date: null, metadata: { size } });
}

const files = [record('a', 'Blood work', 1536), record('b', 'MRI scan', 5 * 1024 * 1024), record('c', 'Note', 300)];
const link = {
  id: 'l1',
  url: 'http://localhost:3000/shared/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG',
  expires_at: '2024-03-06T10:00:00.000Z',
};

function renderModal() {
  const onClose = vi.fn();
  renderRoutes([{ path: '/', element: <ViewFilesModal open onClose={onClose} /> }], '/');
  return { onClose };
}

beforeEach(() => {
  for (const fn of Object.values(toast)) fn.mockReset();
});

describe('View Files modal', () => {
  it('lists every file with its name, size (base 1024) and created date, each with a checkbox', async () => {
    mockFetch(() => json(files));
    renderModal();
    const dialog = screen.getByRole('dialog', { name: 'View Files' });
    const boxes = await within(dialog).findAllByRole('checkbox');
    expect(boxes).toHaveLength(3);
    expect(within(dialog).getByRole('checkbox', { name: 'Blood work' })).toBeTruthy();
    expect(within(dialog).getByText(/1\.5 KB · Created/)).toBeTruthy();
    expect(within(dialog).getByText(/5 MB · Created/)).toBeTruthy();
    expect(within(dialog).getByText(/300 Bytes · Created/)).toBeTruthy();
    // Nothing is selected, so no link is made and none is offered.
    expect(within(dialog).queryByRole('img', { name: /QR code/ })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Create share link' })).toBeNull();
  });

  it('shows a 200 px QR code and a link for the selected files as soon as they are ticked, then copies and revokes it', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { calls } = mockFetch((call) => {
      if (call.url === '/api/user/files/share-links' && call.method === 'POST') return json(link, 201);
      if (call.method === 'DELETE') return json({ message: 'Share link revoked' });
      return json(files);
    });
    renderModal();
    await user.click(await screen.findByRole('checkbox', { name: 'MRI scan' }));
    await user.click(screen.getByRole('checkbox', { name: 'Blood work' }));

    const qr = await screen.findByRole('img', { name: 'QR code that opens the selected files' });
    expect(qr.getAttribute('width')).toBe('200');
    // Focus stays on the checkbox; a screen reader hears that the link is ready.
    expect(screen.getByRole('status').textContent).toBe('The link and its QR code are ready below.');
    // The link shown is for both files, the first ticked first (two quick ticks usually make one link).
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ fileIds: ['b', 'a'] });
    expect(screen.getByRole('link', { name: link.url }).getAttribute('href')).toBe(link.url);
    expect(screen.getByRole('heading', { name: 'Link to 2 files' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(link.url);
    expect(toast.success).toHaveBeenCalledWith('Link copied to clipboard!');

    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('img', { name: /QR code/ })).toBeNull());
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/user/files/share-links/l1');
    // After a revoke a new link is made only when asked for.
    expect(screen.getByRole('button', { name: 'Create share link' })).toBeTruthy();
  });

  it('replaces the link when the selection changes, and revokes the one it replaced and the last when nothing is selected', async () => {
    const user = userEvent.setup();
    let made = 0;
    const { calls } = mockFetch((call) => {
      if (call.method === 'POST') {
        made += 1;
        return json({ ...link, id: `l${made}`, url: `${link.url.slice(0, -1)}${made}` }, 201);
      }
      if (call.method === 'DELETE') return json({ message: 'Share link revoked' });
      return json(files);
    });
    renderModal();
    await user.click(await screen.findByRole('checkbox', { name: 'Note' }));
    expect(await screen.findByRole('heading', { name: 'Link to 1 file' })).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: 'Blood work' }));
    expect(await screen.findByRole('heading', { name: 'Link to 2 files' })).toBeTruthy();
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/user/files/share-links/l1']));

    await user.click(screen.getByRole('checkbox', { name: 'Note' }));
    await user.click(screen.getByRole('checkbox', { name: 'Blood work' }));
    await waitFor(() => expect(screen.queryByRole('img', { name: /QR code/ })).toBeNull());
    // Every link made was revoked: the one replaced, the last one, and any made in between.
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(made));
  });

  it('when the files cannot be loaded it says so instead of "No records yet", and Try again fetches them', async () => {
    let fail = true;
    mockFetch(() => (fail ? json({ message: 'Internal Server Error' }, 500) : json(files)));
    const user = userEvent.setup();
    renderModal();
    const dialog = screen.getByRole('dialog', { name: 'View Files' });
    expect(await within(dialog).findByText('Your files could not be loaded.')).toBeTruthy();
    expect(within(dialog).queryByText('No records yet')).toBeNull();
    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByRole('checkbox', { name: 'Blood work' })).toBeTruthy();
  });

  it('says "Error generating download links" when the link cannot be made, and offers to try again', async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail = true;
    mockFetch((call) => (call.method === 'POST' ? (fail ? json({ message: 'File not found' }, 404) : json(link, 201)) : json(files)));
    renderModal();
    await user.click(await screen.findByRole('checkbox', { name: 'Note' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error generating download links'));
    expect(screen.queryByRole('img', { name: /QR code/ })).toBeNull();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Create share link' }));
    expect(await screen.findByRole('img', { name: 'QR code that opens the selected files' })).toBeTruthy();
  });
});
