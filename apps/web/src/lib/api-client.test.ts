import { describe, expect, it } from 'vitest';
import { empty, json, mockFetch } from '../../test/utils';
import { ApiError, api, apiRequest, isReauthRequired, onReauthRequired, serverErrorField, serverMessage } from './api-client';

describe('api client', () => {
  it('sends credentials and no Content-Type when there is no body', async () => {
    const { calls } = mockFetch(() => json({ ok: true }));
    await expect(api.get('/api/thing', { query: { pin: '1234', skip: undefined } })).resolves.toEqual({ ok: true });
    expect(calls[0]).toMatchObject({ url: '/api/thing?pin=1234', method: 'GET', credentials: 'include' });
    expect(calls[0]!.headers['Content-Type']).toBeUndefined();
  });

  it('sends a JSON body with a JSON Content-Type', async () => {
    const { calls } = mockFetch(() => json({ message: 'saved' }, 201));
    await expect(api.post('/api/thing', { a: 1 })).resolves.toEqual({ message: 'saved' });
    expect(calls[0]).toMatchObject({ method: 'POST', body: { a: 1 }, credentials: 'include' });
    expect(calls[0]!.headers['Content-Type']).toBe('application/json');
  });

  it('lets the browser set the multipart Content-Type of FormData', async () => {
    const { calls } = mockFetch(() => empty(204));
    const form = new FormData();
    form.append('customName', 'x-ray');
    await expect(api.post('/api/user/files', form)).resolves.toBeUndefined();
    expect(calls[0]!.body).toBe(form);
    expect(calls[0]!.headers['Content-Type']).toBeUndefined();
  });

  it('rejects with the body message, else the error field, else a generic text', async () => {
    const answers = [
      json({ message: 'Invalid PIN', remainingAttempts: 3 }, 401),
      json({ error: 'Bad Request' }, 400),
      new Response('upstream down', { status: 502 }),
    ];
    mockFetch(() => answers.shift()!);

    const first = await apiRequest('/a').catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ApiError);
    expect(first).toMatchObject({ status: 401, message: 'Invalid PIN', body: { message: 'Invalid PIN', remainingAttempts: 3 } });
    expect(serverMessage(first)).toBe('Invalid PIN');

    const second = await apiRequest('/b').catch((e: unknown) => e);
    expect(second).toMatchObject({ status: 400, message: 'Bad Request' });
    expect(serverMessage(second)).toBeUndefined();
    expect(serverErrorField(second)).toBe('Bad Request');

    const third = await apiRequest('/c').catch((e: unknown) => e);
    expect(third).toMatchObject({ status: 502, message: 'Request failed with status code 502', body: 'upstream down' });
  });
});

describe('re-authentication', () => {
  const reauthRequired = () => json({ message: 'Please confirm your password to continue.', reauth_required: true }, 401);

  it('tells a password prompt apart from "not signed in"', async () => {
    mockFetch(reauthRequired);
    const prompt = await api.get('/api/user/export').catch((error: unknown) => error);
    expect(isReauthRequired(prompt)).toBe(true);
    mockFetch(() => json({ message: 'Not authenticated' }, 401));
    const signedOut = await api.get('/api/user/export').catch((error: unknown) => error);
    expect(isReauthRequired(signedOut)).toBe(false);
    expect(isReauthRequired(new Error('x'))).toBe(false);
  });

  it('sends the call again once the registered prompt confirms, and not when it is cancelled', async () => {
    const answers = [reauthRequired(), json({ ok: true }), reauthRequired()];
    const { calls } = mockFetch(() => answers.shift()!);
    const confirmations = [true, false];
    const unregister = onReauthRequired(async () => confirmations.shift()!);
    try {
      await expect(api.post('/api/thing', { a: 1 })).resolves.toEqual({ ok: true });
      expect(calls.map((c) => c.body)).toEqual([{ a: 1 }, { a: 1 }]);
      await expect(api.post('/api/thing', { a: 2 })).rejects.toMatchObject({
        status: 401,
        message: 'Please confirm your password to continue.',
      });
      expect(calls).toHaveLength(3);
    } finally {
      unregister();
    }
  });

  it('without a prompt on the page the answer goes to the caller as it is', async () => {
    const { calls } = mockFetch(reauthRequired);
    await expect(api.post('/api/thing', {})).rejects.toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
  });
});
