import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { NOT_CONFIGURED_QR } from '../testing/fixtures';
import { EmergencyCardDownloads, defaultPaper } from './emergency-card-downloads';

const SHARE_ID = 'A'.repeat(43);
const ACTIVE = {
  exists: true,
  is_active: true,
  access_pin: '••••',
  qr_data: `http://localhost/emergency/${SHARE_ID}`,
  share_id: SHARE_ID,
  is_disabled: false,
  essentials_without_pin: false,
  pin_status: 'ok' as const,
};
const INACTIVE = { ...ACTIVE, is_active: false };

function renderBlock(target: { self: true } | { memberId: string } = { self: true }) {
  return renderRoutes([{ path: '/settings', element: <EmergencyCardDownloads target={target} /> }], '/settings');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('emergency card downloads', () => {
  it('offers the wallet card, the QR code and the lock-screen image for an active own code, with A4 or Letter', async () => {
    mockFetch(() => json(ACTIVE));
    const user = userEvent.setup();
    renderBlock();
    const card = await screen.findByRole('link', { name: 'Download wallet card (PDF)' });
    expect(screen.getByRole('heading', { name: 'Something to carry' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download QR code (PNG)' }).getAttribute('href')).toBe('/api/user/wearable-qr/qr.png');
    expect(screen.getByRole('link', { name: 'Download lock-screen image (PNG)' }).getAttribute('href')).toBe(
      '/api/user/wearable-qr/lockscreen.png',
    );
    expect(card.hasAttribute('download')).toBe(true);

    await user.selectOptions(screen.getByLabelText('Paper size'), 'US Letter');
    expect(card.getAttribute('href')).toBe('/api/user/wearable-qr/card.pdf?paper=letter');
    await user.selectOptions(screen.getByLabelText('Paper size'), 'A4');
    expect(card.getAttribute('href')).toBe('/api/user/wearable-qr/card.pdf?paper=a4');
    // No PIN field until asked for; the links never carry the PIN.
    expect(screen.queryByLabelText('The code’s PIN')).toBeNull();
  });

  it("uses the member's paths for a member's code", async () => {
    mockFetch(() => json(ACTIVE));
    renderBlock({ memberId: 'm 1' });
    expect((await screen.findByRole('link', { name: 'Download QR code (PNG)' })).getAttribute('href')).toBe(
      '/api/user/family/members/m%201/qr/qr.png',
    );
  });

  it.each([
    ['not set up', NOT_CONFIGURED_QR],
    ['inactive', INACTIVE],
  ])('shows nothing for a code %s', async (_what, config) => {
    const { calls } = mockFetch(() => json(config));
    renderBlock();
    await waitFor(() => expect(calls.length).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByRole('link', { name: /Download/ })).toBeNull();
  });

  it('"Print the PIN on the card" reveals a 4-digit PIN field; a wrong PIN shows the server\'s message and saves nothing', async () => {
    const { calls } = mockFetch((call) =>
      call.url.includes('card.pdf') ? json({ message: 'That is not this code’s PIN.' }, 400) : json(ACTIVE),
    );
    const createObjectURL = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL }));
    const user = userEvent.setup();
    renderBlock();
    const card = await screen.findByRole('link', { name: 'Download wallet card (PDF)' });
    await user.selectOptions(screen.getByLabelText('Paper size'), 'A4');
    await user.click(screen.getByRole('checkbox', { name: 'Print the PIN on the card' }));
    const pin = screen.getByLabelText('The code’s PIN');
    expect(pin.getAttribute('inputmode')).toBe('numeric');

    await user.type(pin, '48');
    await user.click(card);
    expect(screen.getByText('PIN must be 4 digits')).toBeTruthy();
    expect(calls.some((c) => c.url.includes('card.pdf'))).toBe(false);

    await user.type(pin, '2a6');
    expect((pin as HTMLInputElement).value).toBe('4826');
    await user.click(card);
    expect(await screen.findByText('That is not this code’s PIN.')).toBeTruthy();
    expect(calls.find((c) => c.url.includes('card.pdf'))?.url).toBe('/api/user/wearable-qr/card.pdf?paper=a4&pin=4826');
    expect(createObjectURL).not.toHaveBeenCalled();
  });

  it("with the right PIN, saves the card the server made under the server's file name", async () => {
    mockFetch((call) =>
      call.url.includes('card.pdf')
        ? new Response('%PDF-1.7', {
            status: 200,
            headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="emergency-pat-card.pdf"' },
          })
        : json(ACTIVE),
    );
    const createObjectURL = vi.fn(() => 'blob:card');
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const clicks: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    const user = userEvent.setup();
    renderBlock();
    await user.click(await screen.findByRole('checkbox', { name: 'Print the PIN on the card' }));
    await user.type(screen.getByLabelText('The code’s PIN'), '4826');
    await user.click(screen.getByRole('link', { name: 'Download wallet card (PDF)' }));
    await waitFor(() => expect(clicks).toEqual(['emergency-pat-card.pdf']));
    click.mockRestore();
  });

  it('defaults to US Letter for US and Canadian browsers, A4 elsewhere', () => {
    expect(defaultPaper('en-US')).toBe('letter');
    expect(defaultPaper('fr-CA')).toBe('letter');
    expect(defaultPaper('en-GB')).toBe('a4');
    expect(defaultPaper('de')).toBe('a4');
    expect(defaultPaper(undefined)).toBe('a4');
  });
});
