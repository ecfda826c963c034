import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MedicalFile } from '@kinchart/shared/files';
import { empty, json, mockFetch, renderRoutes } from '../../../../test/utils';
import { ViewFilesModal } from './view-files-modal';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() }));
vi.mock('../../../lib/toast', () => ({ notify: toast, preloadToasts: () => undefined }));

function record(id: string, name: string, size: number): MedicalFile {
  return {
    id,
    record_id: id,
    name,
    file_name: name,
    display_name: name,
    originalname: `${name}.pdf`,
    file_type: 'application/pdf',
    url: `/api/user/files/${id}/content`,
    created_at: '2024-03-05T10:00:00.000Z',
    record_date: null,
    record_details: { provider_name: null, visit_location: null, visit_reason: null },
    provider_name: null,
    visit_location: null,
    visit_reason: null,
    metadata: { size },
  };
}

const files = [record('a', 'Blood work', 1536), record('b', 'MRI scan', 5 * 1024 * 1024), record('c', 'Note', 300)];
const link = { id: 'l1', url: 'http://localhost:3000/shared/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG', expires_at: '2024-03-06T10:00:00.000Z' };

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
    expect(within(dialog).getByRole('button', { name: 'Create share link' })).toHaveProperty('disabled', true);
  });

  it('makes a link for the selected files with a 200 px QR code, copies it and revokes it', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { calls } = mockFetch((call) => {
      if (call.url === '/api/user/files/share-links' && call.method === 'POST') return json(link, 201);
      if (call.method === 'DELETE') return empty(204);
      return json(files);
    });
    renderModal();
    await user.click(await screen.findByRole('checkbox', { name: 'MRI scan' }));
    await user.click(screen.getByRole('checkbox', { name: 'Blood work' }));
    await user.click(screen.getByRole('button', { name: 'Create share link' }));

    const qr = await screen.findByRole('img', { name: 'QR code that opens the selected files' });
    expect(qr.getAttribute('width')).toBe('200');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ fileIds: ['b', 'a'] });
    expect(screen.getByRole('link', { name: link.url }).getAttribute('href')).toBe(link.url);
    expect(screen.getByRole('heading', { name: 'Link to 2 files' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(link.url);
    expect(toast.success).toHaveBeenCalledWith('Link copied to clipboard!');

    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('img', { name: /QR code/ })).toBeNull());
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/user/files/share-links/l1');
  });

  it('says "Error generating download links" when the link cannot be made', async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch((call) => (call.method === 'POST' ? json({ message: 'File not found' }, 404) : json(files)));
    renderModal();
    await user.click(await screen.findByRole('checkbox', { name: 'Note' }));
    await user.click(screen.getByRole('button', { name: 'Create share link' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error generating download links'));
    expect(screen.queryByRole('img', { name: /QR code/ })).toBeNull();
  });
});
