import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { notify } from '../../../lib/toast';
import { NOT_CONFIGURED_QR } from '../testing/fixtures';
import { PersonalQrTab } from './personal-qr-tab';

vi.mock('../../../lib/toast');

const SHARE_ID = 'A'.repeat(43);
const LINK = `http://localhost/emergency/${SHARE_ID}`;
const ACTIVE = {
  exists: true,
  is_active: true,
  access_pin: '••••',
  qr_data: LINK,
  share_id: SHARE_ID,
  is_disabled: false,
  essentials_without_pin: false,
  pin_status: 'ok' as const,
};

function renderTab() {
  return renderRoutes([{ path: '/settings', element: <PersonalQrTab /> }], '/settings');
}

describe('personal QR code tab', () => {
  it('the PIN field keeps digits only, at most 4, and the button works only with 4 digits', async () => {
    const { calls } = mockFetch((call) =>
      call.method === 'POST' ? json({ ...ACTIVE, message: 'QR code set up successfully' }, 201) : json(NOT_CONFIGURED_QR),
    );
    const user = userEvent.setup();
    renderTab();
    expect(screen.getByRole('heading', { level: 2, name: 'Personal QR Code' })).toBeTruthy();
    const input = await screen.findByLabelText('Choose a 4-digit PIN');
    const button = screen.getByRole('button', { name: 'Set Up QR Code' });
    expect(input.getAttribute('inputmode')).toBe('numeric');

    await user.type(input, '4a8-2');
    expect((input as HTMLInputElement).value).toBe('482');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await user.tab();
    expect(screen.getByText('PIN must be 4 digits')).toBeTruthy();

    await user.type(input, '6');
    expect((input as HTMLInputElement).value).toBe('4826');
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByText('PIN must be 4 digits')).toBeNull();
    await user.type(input, '9');
    expect((input as HTMLInputElement).value).toBe('4826');

    await user.click(screen.getByRole('radio', { name: /^No/ }));
    await user.click(button);
    expect(await screen.findByText('QR code set up successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/user/wearable-qr',
      body: { pin: '4826', essentials_without_pin: false },
    });
    // Active: the masked PIN, the code and its link.
    expect(screen.getByText('••••')).toBeTruthy();
    expect(screen.getByRole('img', { name: /QR code linking to your emergency information/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: LINK }).getAttribute('href')).toBe(LINK);
  });

  it('a user who pastes a PIN with separators into the set-up or update field keeps its digits, at most the first four', async () => {
    let active = false;
    mockFetch((call) => {
      if (call.method === 'POST') {
        active = true;
        return json({ ...ACTIVE, message: 'QR code set up successfully' }, 201);
      }
      return json(active ? ACTIVE : NOT_CONFIGURED_QR);
    });
    const user = userEvent.setup();
    renderTab();
    const setUp = await screen.findByLabelText<HTMLInputElement>('Choose a 4-digit PIN');
    await user.click(setUp);
    await user.paste('12ab3456');
    expect(setUp.value).toBe('1234');
    await user.clear(setUp);
    await user.paste('48-26');
    expect(setUp.value).toBe('4826');
    await user.click(screen.getByRole('radio', { name: /^No/ }));
    await user.click(screen.getByRole('button', { name: 'Set Up QR Code' }));

    const update = await screen.findByLabelText<HTMLInputElement>('New PIN');
    await user.click(update);
    await user.paste('59-37');
    expect(update.value).toBe('5937');
    await user.clear(update);
    await user.paste('59ab3712');
    expect(update.value).toBe('5937');
  });

  it('shows the server’s reason when a PIN is refused as too easy to guess', async () => {
    const weak = 'This PIN is too easy to guess. Please choose a less predictable 4-digit PIN.';
    mockFetch((call) => (call.method === 'POST' ? json({ message: weak }, 400) : json(NOT_CONFIGURED_QR)));
    const user = userEvent.setup();
    renderTab();
    await user.type(await screen.findByLabelText('Choose a 4-digit PIN'), '1234');
    await user.click(screen.getByRole('radio', { name: /^No/ }));
    await user.click(screen.getByRole('button', { name: 'Set Up QR Code' }));
    expect(await screen.findByText(weak)).toBeTruthy();
  });

  it('a set-up failure without a reason says "Error setting up QR code"', async () => {
    mockFetch((call) => (call.method === 'POST' ? json({}, 500) : json(NOT_CONFIGURED_QR)));
    const user = userEvent.setup();
    renderTab();
    await user.type(await screen.findByLabelText('Choose a 4-digit PIN'), '4826');
    await user.click(screen.getByRole('radio', { name: /^No/ }));
    await user.click(screen.getByRole('button', { name: 'Set Up QR Code' }));
    expect(await screen.findByText('Error setting up QR code')).toBeTruthy();
  });

  it('deactivating sends the desired state and hides the code and link; activating shows them again', async () => {
    let config = { ...ACTIVE };
    const { calls } = mockFetch((call) => {
      if (call.method === 'PUT') {
        config = { ...config, is_active: (call.body as { is_active: boolean }).is_active };
        return json(config);
      }
      return json(config);
    });
    const user = userEvent.setup();
    renderTab();
    await user.click(await screen.findByRole('button', { name: 'Deactivate' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByRole('button', { name: 'Activate' })).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/api/user/wearable-qr/toggle', body: { is_active: false } });
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByRole('link', { name: LINK })).toBeNull();
    expect(screen.getByText('Inactive')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Activate' }));
    expect(await screen.findByRole('link', { name: LINK })).toBeTruthy();
  });

  it('a toggle answered 404 goes back to set-up with "Please set up your QR code first"', async () => {
    mockFetch((call) => (call.method === 'PUT' ? json({ message: 'QR code not found' }, 404) : json(ACTIVE)));
    const user = userEvent.setup();
    renderTab();
    await user.click(await screen.findByRole('button', { name: 'Deactivate' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('Please set up your QR code first')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Set Up QR Code' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Activate' })).toBeNull();
  });

  it('other toggle failures say "Error toggling QR code"', async () => {
    mockFetch((call) => (call.method === 'PUT' ? json({}, 500) : json(ACTIVE)));
    const user = userEvent.setup();
    renderTab();
    await user.click(await screen.findByRole('button', { name: 'Deactivate' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('Error toggling QR code')).toBeTruthy();
  });

  it('asks before deactivating, naming what stops working; Cancel leaves the code active and sends nothing', async () => {
    const { calls } = mockFetch(() => json(ACTIVE));
    const user = userEvent.setup();
    renderTab();
    await user.click(await screen.findByRole('button', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Deactivate your QR code?' });
    expect(within(dialog).getByText(/no essentials and no emergency information, even with the PIN/)).toBeTruthy();
    expect(within(dialog).getByText(/printed cards, wristbands, lock-screen images and its SMART Health Link stop working/i)).toBeTruthy();
    // Focus starts on Cancel: Enter straight away changes nothing.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
    expect(screen.getByText('Active')).toBeTruthy();
  });

  it('set-up asks plainly whether the essentials may show without the PIN, and sends the answer with the PIN', async () => {
    let config = NOT_CONFIGURED_QR;
    const { calls } = mockFetch((call) => {
      if (call.method === 'POST') {
        config = { ...ACTIVE, essentials_without_pin: (call.body as { essentials_without_pin: boolean }).essentials_without_pin };
        return json({ ...config, message: 'QR code set up successfully' }, 201);
      }
      return json(config);
    });
    const user = userEvent.setup();
    renderTab();
    const question = await screen.findByRole('radiogroup', { name: 'Show the essentials without the PIN?' });
    expect(within(question).getByText(/Recommended for wristbands and lock screens/)).toBeTruthy();
    const yes = within(question).getByRole('radio', { name: /^Yes/ });
    const no = within(question).getByRole('radio', { name: /^No/ });
    expect((yes as HTMLInputElement).checked || (no as HTMLInputElement).checked).toBe(false);

    // Without an answer the set-up waits and says why.
    await user.type(screen.getByLabelText('Choose a 4-digit PIN'), '4826');
    await user.click(screen.getByRole('button', { name: 'Set Up QR Code' }));
    expect(await screen.findByText('Choose whether the essentials may show without the PIN.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    await user.click(yes);
    await user.click(screen.getByRole('button', { name: 'Set Up QR Code' }));
    expect(await screen.findByText('QR code set up successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/user/wearable-qr',
      body: { pin: '4826', essentials_without_pin: true },
    });
    expect((await screen.findByRole<HTMLInputElement>('checkbox', { name: 'Show essentials without the PIN' })).checked).toBe(true);
  });

  it('updates the PIN, and says "Failed to update PIN" when that fails', async () => {
    let fail = false;
    const { calls } = mockFetch((call) => {
      if (call.method === 'PUT') return fail ? json({}, 500) : json({ ...ACTIVE, message: 'PIN updated successfully' });
      return json(ACTIVE);
    });
    const user = userEvent.setup();
    renderTab();
    const input = await screen.findByLabelText('New PIN');
    await user.type(input, '5937');
    await user.click(screen.getByRole('button', { name: 'Update PIN' }));
    const success = await screen.findByText('PIN updated successfully');
    expect(success.getAttribute('data-tone')).toBe('success');
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/api/user/wearable-qr/update-pin', body: { pin: '5937' } });
    expect((input as HTMLInputElement).value).toBe('');

    fail = true;
    await user.type(input, '5938');
    await user.click(screen.getByRole('button', { name: 'Update PIN' }));
    const failure = await screen.findByText('Failed to update PIN');
    expect(failure.getAttribute('data-tone')).toBe('error');
  });

  it('copies the link and says "Link copied to clipboard!"', async () => {
    mockFetch(() => json(ACTIVE));
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    renderTab();
    await user.click(await screen.findByRole('button', { name: 'Copy Link' }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Link copied to clipboard!'));
    expect(writeText).toHaveBeenCalledWith(LINK);
  });

  it('explains a code that was switched off after too many wrong PINs', async () => {
    mockFetch(() => json({ ...ACTIVE, is_active: false, is_disabled: true }));
    renderTab();
    expect(await screen.findByText(/switched off automatically after too many wrong PIN attempts/)).toBeTruthy();
  });

  it('says "Error fetching QR configuration" when the configuration cannot be read', async () => {
    mockFetch(() => json({}, 500));
    renderTab();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error fetching QR configuration')).toBeTruthy();
  });

  it('says plainly what a scanner sees: everything after the PIN, or the essentials at once when the owner chose so', async () => {
    let essentials = false;
    mockFetch((call) => {
      if (call.method === 'PUT') essentials = (call.body as { essentials_without_pin: boolean }).essentials_without_pin;
      return json({ ...ACTIVE, essentials_without_pin: essentials, pin_status: 'ok' });
    });
    const user = userEvent.setup();
    renderTab();
    expect(
      await screen.findByText(
        /sees your emergency medical information after entering the PIN\. You are notified when it is opened; views within 15 minutes are counted in one notice\./,
      ),
    ).toBeTruthy();
    await user.click(await screen.findByRole('checkbox', { name: 'Show essentials without the PIN' }));
    expect(
      await screen.findByText(
        /sees the essentials straight away and the rest of your emergency medical information after entering the PIN\./,
      ),
    ).toBeTruthy();
  });
});
