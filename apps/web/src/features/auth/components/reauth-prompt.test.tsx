import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { api, errorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { SIGNED_OUT, authQueryKey } from '../api/check-auth';
import { ReauthPrompt } from './reauth-prompt';

vi.mock('../../../lib/toast');

const SHARES = '/api/user/people/p1/shares';
const REAUTH_REQUIRED = () => json({ message: 'Please confirm your password to continue.', reauth_required: true }, 401);
const CONFIRMED = () => json({ message: 'Password confirmed', authenticated_until: '2026-03-04T10:10:00.000Z' });

/** A stand-in for any action that needs a recent password: it shows what its call ended with. */
function ShareAction() {
  const [result, setResult] = useState('');
  const run = async () => {
    try {
      await api.post(SHARES, { role: 'viewer' });
      setResult('Invitation created');
    } catch (error) {
      setResult(errorMessage(error, 'Failed'));
    }
  };
  return (
    <>
      <button type="button" onClick={() => void run()}>
        Create invitation link
      </button>
      <p data-testid="result">{result}</p>
    </>
  );
}

/** GET /api/config as a server without single sign-on answers it (the prompt asks once it opens). */
const NO_SSO = () => json({ max_upload_bytes: 1024, signup_mode: 'open', sso: null });
const notConfig = (call: FetchCall) => call.url !== '/api/config';

function renderWithPrompt(handler: (call: FetchCall) => Response, config: () => Response = NO_SSO) {
  const fetched = mockFetch((call) => (call.url === '/api/config' ? config() : handler(call)));
  const user = userEvent.setup();
  const rendered = renderRoutes(
    [
      {
        path: '/',
        element: (
          <>
            <ReauthPrompt />
            <ShareAction />
          </>
        ),
      },
    ],
    '/',
  );
  return { ...fetched, ...rendered, user };
}

const result = () => screen.getByTestId('result').textContent;

describe('Re-authentication prompt', () => {
  it('an action that needs a recent password asks for it, then goes on by itself', async () => {
    const reauthAnswers = [json({ message: 'Password is incorrect' }, 400), CONFIRMED()];
    const shareAnswers = [REAUTH_REQUIRED(), json({ share_id: 's1' }, 201)];
    const { calls, user } = renderWithPrompt((call) => (call.url === '/api/auth/reauth' ? reauthAnswers.shift()! : shareAnswers.shift()!));

    await user.click(screen.getByRole('button', { name: 'Create invitation link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    const password = within(dialog).getByLabelText('Password');
    expect(document.activeElement).toBe(password);

    await user.type(password, 'not my password');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Password is incorrect');
    expect((password as HTMLInputElement).value).toBe('');
    expect(result()).toBe('');

    await user.type(password, 'correct horse battery');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(result()).toBe('Invitation created'));
    expect(screen.queryByRole('dialog')).toBeNull();
    const sent = calls.filter(notConfig);
    expect(sent.map((c) => `${c.method} ${c.url}`)).toEqual([
      `POST ${SHARES}`,
      'POST /api/auth/reauth',
      'POST /api/auth/reauth',
      `POST ${SHARES}`,
    ]);
    expect(sent[2]?.body).toEqual({ password: 'correct horse battery' });
    // The original request is sent again as it was.
    expect(sent[3]?.body).toEqual({ role: 'viewer' });
    // Without single sign-on there is only the password.
    expect(screen.queryByRole('button', { name: /Confirm with/ })).toBeNull();
  });

  it('an empty password is not sent', async () => {
    const { calls, user } = renderWithPrompt(() => REAUTH_REQUIRED());
    await user.click(screen.getByRole('button', { name: 'Create invitation link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('Password is required')).toBeTruthy();
    expect(calls.filter((c) => c.url === '/api/auth/reauth')).toHaveLength(0);
  });

  it('cancelling leaves the action undone with a clear message, and sends nothing again', async () => {
    const { calls, user } = renderWithPrompt(() => REAUTH_REQUIRED());
    await user.click(screen.getByRole('button', { name: 'Create invitation link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(result()).toBe('Please confirm your password to continue.'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.filter(notConfig)).toHaveLength(1);
  });

  it('calls that need the password together share one prompt and all go on', async () => {
    let confirmed = false;
    const { calls, user } = renderWithPrompt((call) => {
      if (call.url === '/api/auth/reauth') {
        confirmed = true;
        return CONFIRMED();
      }
      return confirmed ? json({ ok: true }) : REAUTH_REQUIRED();
    });
    let settled: PromiseSettledResult<unknown>[] = [];
    const both = Promise.allSettled([api.get('/api/user/export-a'), api.get('/api/user/export-b')]).then((r) => (settled = r));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    await user.type(within(dialog).getByLabelText('Password'), 'correct horse battery');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await act(async () => {
      await both;
    });
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(calls.filter((c) => c.url === '/api/auth/reauth')).toHaveLength(1);
  });

  it('too many wrong passwords end the session: the prompt closes and the app signs out', async () => {
    const { user, queryClient } = renderWithPrompt((call) =>
      call.url === '/api/auth/reauth'
        ? json({ message: 'Too many incorrect passwords. You have been signed out; please sign in again in 15 minutes.' }, 429)
        : REAUTH_REQUIRED(),
    );
    await user.click(screen.getByRole('button', { name: 'Create invitation link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.type(within(dialog).getByLabelText('Password'), 'eleventh guess');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(notify.error).toHaveBeenCalledWith(
      'Too many incorrect passwords. You have been signed out; please sign in again in 15 minutes.',
    );
    expect(queryClient.getQueryData(authQueryKey)).toEqual(SIGNED_OUT);
    await waitFor(() => expect(result()).toBe('Please confirm your password to continue.'));
  });
  describe('with single sign-on', () => {
    it('offers "Confirm with {name}", which goes round the provider and back to this page', async () => {
      const assign = vi.fn();
      vi.stubGlobal('location', { ...window.location, assign });
      // This server has a provider.
      const { calls, user } = renderWithPrompt(
        (call) => (call.url === '/api/auth/oidc/start' ? json({ url: 'https://id.example.org/auth?prompt=login' }) : REAUTH_REQUIRED()),
        () => json({ max_upload_bytes: 1024, signup_mode: 'open', sso: { name: 'Acme ID' } }),
      );
      await user.click(screen.getByRole('button', { name: 'Create invitation link' }));
      const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
      await user.click(await within(dialog).findByRole('button', { name: 'Confirm with Acme ID' }));
      await waitFor(() => expect(assign).toHaveBeenCalledWith('https://id.example.org/auth?prompt=login'));
      expect(calls.find((c) => c.url === '/api/auth/oidc/start')?.body).toEqual({ purpose: 'reauth', next: '/' });
      vi.unstubAllGlobals();
    });

    it('back from the provider, says whether it worked and takes the mark out of the address', async () => {
      mockFetch(() => NO_SSO());
      const confirmed = renderRoutes([{ path: '/settings', element: <ReauthPrompt /> }], '/settings?tab=a&sso=confirmed');
      await waitFor(() =>
        expect(notify.success).toHaveBeenCalledWith('Confirmed. Please try that again: you will not be asked for 10 minutes.'),
      );
      await waitFor(() => expect(confirmed.router.state.location.search).toBe('?tab=a'));
      confirmed.unmount();
      const failed = renderRoutes([{ path: '/settings', element: <ReauthPrompt /> }], '/settings?sso_error=other_account');
      await waitFor(() =>
        expect(notify.error).toHaveBeenCalledWith(
          'That sign-in belongs to another account. Confirm with the account you are signed in with.',
        ),
      );
      await waitFor(() => expect(failed.router.state.location.search).toBe(''));
    });
  });
});
