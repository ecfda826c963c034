import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { lazyChildLoggerFactory, loggerOptions, redactUrl } from '../src/plugins/logging';
import { TestClient, appWithCapturedLog, buildTestApp, signedInUser } from './helpers';
import { insertMember } from './factories';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level }, stream) as unknown as FastifyBaseLogger;
  return { logger, lines };
}

describe('lazyChildLoggerFactory', () => {
  it('makes no child for a request that logs nothing at an enabled level', () => {
    const { logger, lines } = capture('warn');
    const child = vi.spyOn(logger, 'child');
    const log = lazyChildLoggerFactory(logger, { reqId: 'req-1' }, {});
    log.info('incoming request');
    log.debug('details');
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it('logs through one child bound to the request id once a level is enabled', () => {
    const { logger, lines } = capture('warn');
    const child = vi.spyOn(logger, 'child');
    const log = lazyChildLoggerFactory(logger, { reqId: 'req-2' }, {});
    log.warn({ code: 1 }, 'first');
    log.error('second');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([
      ['req-2', 'first'],
      ['req-2', 'second'],
    ]);
    expect(lines[0]?.code).toBe(1);
    expect(log.level).toBe('warn');
  });

  it('gives a route with its own level its child at once', () => {
    const { logger, lines } = capture('warn');
    const log = lazyChildLoggerFactory(logger, { reqId: 'req-3' }, { level: 'debug' });
    log.debug('route detail');
    expect(lines.map((l) => l.msg)).toEqual(['route detail']);
  });
});

describe('redactUrl', () => {
  it('redacts PINs, tokens and passcodes in the query, however their keys are spelled', () => {
    expect(redactUrl('/api/user/emergency/abc?pin=4827')).toBe('/api/user/emergency/[redacted]?pin=[redacted]');
    expect(redactUrl('/api/user/emergency/abc?%70in=4827')).toBe('/api/user/emergency/[redacted]?%70in=[redacted]');
    expect(redactUrl('/api/user/emergency/abc?x=1&PIN=4827&token=t#f')).toBe(
      '/api/user/emergency/[redacted]?x=1&PIN=[redacted]&token=[redacted]#f',
    );
    expect(redactUrl('/a??pin=1&&pin=2=3')).toBe('/a??pin=[redacted]&&pin=[redacted]');
    expect(redactUrl('/a?passcode=p&pin=1&pin=2')).toBe('/a?passcode=[redacted]&pin=[redacted]&pin=[redacted]');
    expect(redactUrl('/api/user/appointments.ics?tz=Europe%2FLondon')).toBe('/api/user/appointments.ics?tz=Europe%2FLondon');
    // The return path after sign-in can carry an invitation token.
    expect(redactUrl('/login?next=%2Finvite%2FSECRETTOKEN')).toBe('/login?next=[redacted]');
    expect(redactUrl('/reset-password?token=SECRETTOKEN')).toBe('/reset-password?token=[redacted]');
    // What an identity provider sends back to the single sign-on callback (docs/decisions/0029).
    expect(redactUrl('/api/auth/oidc/callback?code=SECRETCODE&state=SECRETSTATE&session_state=S&iss=https%3A%2F%2Fid.example')).toBe(
      '/api/auth/oidc/callback?code=[redacted]&state=[redacted]&session_state=[redacted]&iss=https%3A%2F%2Fid.example',
    );
  });

  it('redacts what someone searched for, on the API and on the results page', () => {
    expect(redactUrl('/api/user/search?q=HIV%20test&kind=file&limit=20')).toBe('/api/user/search?q=[redacted]&kind=file&limit=20');
    expect(redactUrl('/search?%71=ferritin&person=1')).toBe('/search?%71=[redacted]&person=1');
    expect(redactUrl('/api/user/search?Q=chlamydia')).toBe('/api/user/search?Q=[redacted]');
  });

  it('redacts share tokens and file names in the path, also when percent-encoded', () => {
    expect(redactUrl('/shared/SECRETTOKEN')).toBe('/shared/[redacted]');
    expect(redactUrl('/api/shared/SECRETTOKEN/files/1')).toBe('/api/shared/[redacted]/files/1');
    expect(redactUrl('/api/%73hared/SECRETTOKEN')).toBe('/api/shared/[redacted]');
    expect(redactUrl('/api/user/files/Blood%20test%20HIV')).toBe('/api/user/files/[redacted]');
    expect(redactUrl('/api/user/%66iles/HIV%20result')).toBe('/api/user/files/[redacted]');
    const id = '0b5f7c2e-8a3d-4c1b-9e6f-2d4a8b7c6e5f';
    expect(redactUrl(`/api/user/files/${id}/content`)).toBe(`/api/user/files/${id}/content`);
    expect(redactUrl('/api/user/files/share-links')).toBe('/api/user/files/share-links');
    expect(redactUrl('/api/user/files')).toBe('/api/user/files');
    // A '+' in a path is a plus, not a space.
    expect(redactUrl('/api/user/files/a+b?x=1')).toBe('/api/user/files/[redacted]?x=1');
    expect(redactUrl('/api/user/appointments/a+b')).toBe('/api/user/appointments/a+b');
    expect(redactUrl('/api/auth/sessions/0b6a3c2e-1b0f-4d1e-9a55-2f7d2b8c9e10')).toBe('/api/auth/sessions/[redacted]');
  });

  it('redacts emergency share ids and SMART Health Link ids, pages and API, own and family', () => {
    const id = 'L_E6pX0aQ9mZk3bT1yW8rN2cV5uH7sJ4dF6gA0eI9oP';
    for (const prefix of [
      '/emergency/',
      '/family/emergency/',
      '/api/user/emergency/',
      '/api/user/family/emergency/',
      '/shl/',
      '/shl-files/',
    ]) {
      expect(redactUrl(`${prefix}${id}`)).toBe(`${prefix}[redacted]`);
    }
    expect(redactUrl(`/api/user/family/emergency/${id}/fhir?pin=1234`)).toBe('/api/user/family/emergency/[redacted]/fhir?pin=[redacted]');
    expect(redactUrl(`/api/user/%65mergency/${id}`)).toBe('/api/user/emergency/[redacted]');
    expect(redactUrl('/api/user/wearable-qr/shl')).toBe('/api/user/wearable-qr/shl');
  });

  it('redacts invitation tokens: the invite page, its preview and its accept call', () => {
    const token = 'Qm9vdHN0cmFwLXRva2VuLWZvci1pbnZpdGF0aW9uczE';
    expect(redactUrl(`/invite/${token}`)).toBe('/invite/[redacted]');
    expect(redactUrl(`/api/invitations/${token}`)).toBe('/api/invitations/[redacted]');
    expect(redactUrl(`/api/user/invitations/${token}/accept`)).toBe('/api/user/invitations/[redacted]/accept');
    expect(redactUrl(`/api/%69nvitations/${token}`)).toBe('/api/invitations/[redacted]');
    expect(redactUrl('/api/user/people/abc/shares')).toBe('/api/user/people/abc/shares');
  });

  it('redacts a calendar feed token, and everything after it, however many slashes come before it (issue 32)', () => {
    const token = 'bmxsDIGvvBKdTTGAhyDvhekx8HvigHkc7I3zhuW60hk';
    expect(redactUrl(`/api/calendar/${token}.ics`)).toBe('/api/calendar/[redacted]');
    expect(redactUrl(`/api/%63alendar/${token}.ics?x=1`)).toBe('/api/calendar/[redacted]?x=1');
    // Paths no route answers still reach the log: a doubled slash or a stray segment keeps no token in it.
    expect(redactUrl(`/api/calendar//${token}.ics`)).toBe('/api/calendar/[redacted]');
    expect(redactUrl(`/api//calendar/${token}.ics`)).toBe('/api/calendar/[redacted]');
    expect(redactUrl(`//api/calendar/${token}.ics`)).toBe('/api/calendar/[redacted]');
    expect(redactUrl(`/api/calendar/x/${token}.ics`)).toBe('/api/calendar/[redacted]');
    expect(redactUrl(`/api/shared//${token}/files/1`)).toBe('/api/shared/[redacted]/files/1');
    expect(redactUrl(`/api/user//calendar-feeds`)).toBe('/api/user/calendar-feeds');
  });

  it('redacts an absolute-form URL (scheme and host in the request line) like a path', () => {
    expect(redactUrl('http://localhost:3000/api/shared/SECRETTOKEN/files/1')).toBe('/api/shared/[redacted]/files/1');
    expect(redactUrl('HTTP://x/%61pi/user/emergency/SECRET?pin=1234')).toBe('/api/user/emergency/[redacted]?pin=[redacted]');
    expect(redactUrl('http://x?pin=1234')).toBe('/?pin=[redacted]');
  });

  it('stays linear on a query of repeated separators', () => {
    const query = `?${'?'.repeat(50_000)}x`;
    expect(redactUrl(`/a${query}`)).toBe(`/a${query}`);
  });

  it('leaves a URL it cannot decode as it came, still redacting what it can match', () => {
    expect(redactUrl('/api/user/files/%zz-secret')).toBe('/api/user/files/[redacted]');
    expect(redactUrl('/x/%E0%A4%A?pin=1')).toBe('/x/%E0%A4%A?pin=[redacted]');
  });
});

describe('the error log', () => {
  it('redacts the URL an error carries, like the request log', () => {
    const lines: string[] = [];
    const options = loggerOptions('info') as { serializers: Record<string, (value: unknown) => unknown> };
    const logger = pino({ level: 'info', serializers: options.serializers }, { write: (line: string) => void lines.push(line) });
    const error = Object.assign(new Error('Reply was already sent'), { url: '/api/shared/SECRETTOKEN?pin=4826', statusCode: 500 });
    logger.error({ err: error }, 'request failed');
    logger.error(
      { err: { message: 'response did not match its schema', method: 'GET', url: 'http://h/api/user/emergency/SECRETID' } },
      'x',
    );
    const written = lines.join('\n');
    expect(written).toContain('/api/shared/[redacted]?pin=[redacted]');
    expect(written).toContain('/api/user/emergency/[redacted]');
    expect(written).toContain('Reply was already sent');
    expect(written).not.toContain('SECRET');
    expect(written).not.toContain('4826');
  });
});

describe('the request log of a running app', () => {
  it('holds no emergency share id and no SMART Health Link id, on pages, API routes and manifests alike', async () => {
    const t = await buildTestApp();
    const { app, log } = await appWithCapturedLog(t, loggerOptions('info') as object);
    try {
      const owner = await signedInUser(t.app);
      const own = (await owner.client.post('/api/user/wearable-qr', { pin: '4826' })).json<{ share_id: string }>().share_id;
      const memberId = await insertMember(t.database.db, owner.id, { name: 'Kid' });
      const member = (await owner.client.post(`/api/user/family/members/${memberId}/qr`, { pin: '5937' })).json<{ share_id: string }>()
        .share_id;
      const shl = (await owner.client.post('/api/user/wearable-qr/shl')).json<{ payload: { url: string } }>();
      const manifestId = new URL(shl.payload.url).pathname.split('/').pop()!;
      const visitor = new TestClient(app);
      for (const url of [
        `/emergency/${own}`,
        `/family/emergency/${member}`,
        `/api/user/emergency/${own}`,
        `/api/user/emergency/${own}?pin=4826`,
        `/api/user/family/emergency/${member}?pin=1111`,
        `/api/user/emergency/${own}/fhir?pin=4826`,
      ]) {
        await visitor.get(url);
      }
      await app.inject({ method: 'POST', url: `/shl/${manifestId}`, payload: { recipient: 'Dr. X', passcode: '4826' } });
      const written = log();
      expect(written).toContain('/api/user/emergency/[redacted]');
      expect(written).toContain('/api/user/family/emergency/[redacted]');
      expect(written).toContain('/shl/[redacted]');
      for (const secret of [own, member, manifestId, '4826', '5937']) expect(written).not.toContain(secret);
    } finally {
      await app.close();
      await t.close();
    }
  });

  it('holds no invitation token: not from the invite page, its preview or its accept call', async () => {
    const t = await buildTestApp();
    const { app, log } = await appWithCapturedLog(t, loggerOptions('info') as object);
    try {
      const owner = await signedInUser(t.app);
      const memberId = await insertMember(t.database.db, owner.id, { name: 'Kid' });
      const created = await owner.client.post(`/api/user/people/${memberId}/shares`, { role: 'viewer' });
      expect(created.statusCode).toBe(201);
      const token = new URL(created.json<{ invite_url: string }>().invite_url).pathname.split('/').pop()!;
      const holder = await signedInUser(t.app);
      const visitor = new TestClient(app);
      await visitor.get(`/invite/${token}`);
      expect((await visitor.get(`/api/invitations/${token}`)).statusCode).toBe(200);
      // The holder's session, on the app whose log is read.
      const accepting = new TestClient(app);
      accepting.cookie = holder.client.cookie;
      expect((await accepting.post(`/api/user/invitations/${token}/accept`)).statusCode).toBe(200);
      const written = log();
      expect(written).toContain('/api/invitations/[redacted]');
      expect(written).toContain('/api/user/invitations/[redacted]/accept');
      expect(written).toContain('/invite/[redacted]');
      expect(written).not.toContain(token);
    } finally {
      await app.close();
      await t.close();
    }
  });
});
