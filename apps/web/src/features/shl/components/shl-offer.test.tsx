import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { ShlOffer } from './shl-offer';

vi.mock('../../../lib/toast');

const LINK = {
  shlink: 'shlink:/eyJ1cmwiOiJodHRwOi8vbG9jYWxob3N0In0',
  payload: { url: 'http://localhost/shl/x', key: 'k'.repeat(43), flag: 'LP', label: 'Kinchart emergency summary' },
};

describe('SMART Health Link offer', () => {
  it('shows nothing for an inactive code', () => {
    mockFetch(() => json(LINK));
    renderRoutes([{ path: '/', element: <ShlOffer target={{ self: true }} active={false} whose={{ who: 'self' }} /> }], '/');
    expect(screen.queryByText(/SMART Health Link/)).toBeNull();
  });

  it('fetches the link only when asked, and shows it as a QR code with a copy button', async () => {
    const { calls } = mockFetch(() => json(LINK));
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <ShlOffer target={{ memberId: 'm 1' }} active whose={{ who: 'named', name: 'Rex' }} /> }], '/');
    expect(calls).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Show SMART Health Link' }));
    expect(await screen.findByRole('img', { name: 'SMART Health Link QR code for Rex’s emergency summary' })).toBeTruthy();
    expect(screen.getByText(LINK.shlink)).toBeTruthy();
    expect(calls[0]).toMatchObject({ url: '/api/user/family/members/m%201/qr/shl', method: 'POST', credentials: 'include' });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(screen.getByRole('button', { name: 'Copy SMART Health Link' }));
    expect(writeText).toHaveBeenCalledWith(LINK.shlink);
  });
});
