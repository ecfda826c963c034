import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SHARE_LINK_GONE_MESSAGE } from '@kinchart/shared/files';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { SharedFilesPage } from './shared-files-page';

const token = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

function renderPage() {
  renderRoutes([{ path: '/shared/:token', element: <SharedFilesPage /> }], `/shared/${token}`);
}

describe('shared files page', () => {
  it('lists the shared files with a link that opens each', async () => {
    const { calls } = mockFetch(() =>
      json({
        files: [{ id: 'f1', name: 'Blood work', file_type: 'application/pdf', size: 2048, url: `/api/shared/${token}/files/f1` }],
        expires_at: '2030-01-01T00:00:00.000Z',
      }),
    );
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Shared medical records' })).toBeTruthy();
    expect(await screen.findByText('Blood work')).toBeTruthy();
    expect(screen.getByText('PDF · 2 KB')).toBeTruthy();
    const open = screen.getByRole('link', { name: 'Open' });
    expect(open.getAttribute('href')).toBe(`/api/shared/${token}/files/f1`);
    expect(open.getAttribute('target')).toBe('_blank');
    expect(calls[0]?.url).toBe(`/api/shared/${token}`);
  });

  it('says clearly when the link has expired or was revoked', async () => {
    mockFetch(() => json({ message: SHARE_LINK_GONE_MESSAGE }, 404));
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain(SHARE_LINK_GONE_MESSAGE);
  });
});
