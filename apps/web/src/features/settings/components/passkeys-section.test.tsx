import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { PasskeysSection } from './passkeys-section';

// The Passkeys list in Settings (docs/decisions/0027): names, dates, rename and remove. Adding one
// needs a real browser's WebAuthn and runs in e2e/tests/passkeys.e2e.ts (Chromium's virtual
// authenticator); jsdom has none, so here the browser is given just the presence of the API.

const routes = [{ path: '/settings', element: <PasskeysSection /> }];
const KEY = { id: 'pk-1', name: 'Work laptop', created_at: '2026-11-01T09:00:00.000Z', last_used_at: null };

function serve(passkeys: { id: string; name: string; created_at: string; last_used_at: string | null }[], { passkeysHere = true } = {}) {
  const state = { passkeys: [...passkeys] };
  return mockFetch((call) => {
    const route = `${call.method} ${call.url}`;
    if (route === 'GET /api/config') return json({ max_upload_bytes: 1024, signup_mode: 'open', passkeys: passkeysHere });
    if (route === 'GET /api/auth/mfa')
      return json({ totp: false, passkeys: state.passkeys, recovery_codes_left: state.passkeys.length ? 10 : 0 });
    if (call.method === 'PUT' && call.url === '/api/auth/mfa/passkeys/pk-1') {
      state.passkeys = state.passkeys.map((p) => (p.id === 'pk-1' ? { ...p, name: (call.body as { name: string }).name } : p));
      return json({ message: 'Passkey renamed' });
    }
    if (call.method === 'DELETE' && call.url === '/api/auth/mfa/passkeys/pk-1') {
      state.passkeys = [];
      return json({ message: 'Passkey removed' });
    }
    return json({ message: 'Not found' }, 404);
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('passkeys in settings', () => {
  it('lists each passkey with when it was added and last used; renames it; an empty name is not sent', async () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    const { calls } = serve([KEY]);
    const user = userEvent.setup();
    renderRoutes(routes, '/settings');

    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    expect(within(list).getByText('Work laptop')).toBeTruthy();
    expect(within(list).getByText('Never')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Rename Work laptop' }));
    const field = screen.getByLabelText('New name');
    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Passkey name is required')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await user.type(field, 'Desk key');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Passkey renamed successfully.')).toBeTruthy();
    expect(await within(list).findByText('Desk key')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ name: 'Desk key' });
  });

  it('asks before removing; the only second factor is said to be the last', async () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    serve([KEY]);
    const user = userEvent.setup();
    renderRoutes(routes, '/settings');

    await user.click(await screen.findByRole('button', { name: 'Remove Work laptop' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove the passkey “Work laptop”?' });
    expect(within(dialog).getByText(/It is your only second factor/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Passkey removed successfully.')).toBeTruthy();
    expect(await screen.findByText('You have no passkeys yet.')).toBeTruthy();
  });

  it('says why no passkey can be added: a browser without WebAuthn, or a server reached by an IP', async () => {
    serve([]);
    const first = renderRoutes(routes, '/settings');
    expect(await screen.findByText('This browser cannot use passkeys.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
    first.unmount();

    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    serve([], { passkeysHere: false });
    renderRoutes(routes, '/settings');
    await waitFor(() =>
      expect(screen.getByText('Passkeys are not available on this server: it must be reached by a domain name.')).toBeTruthy(),
    );
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  });
});
