// `npm run reset-password -- --email …` (docs/decisions/0025) as an operator runs it (dist/cli.js)
// beside the production server, on a deployment without email: it prints the account's reset
// link, which works like an emailed one — once, and it ends every session.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from './server-process';
import { HttpClient, PASSWORD, runCli, signUp, startServer } from './server-process';

const ORIGIN = 'http://127.0.0.1';
const PUBLIC_URL = 'https://health.example.org';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-reset-cli-'));
const env = { DATA_DIR: dataDir, PUBLIC_URL };
let server: ServerProcess;

beforeAll(async () => {
  // The server's own PUBLIC_URL would make its cookies https-only; it answers on loopback here.
  server = await startServer({ DATA_DIR: dataDir, PUBLIC_URL: ORIGIN });
});
afterAll(async () => {
  await server.stop('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run reset-password', () => {
  it('prints a single-use link to PUBLIC_URL/reset-password that sets a new password and ends every session', async () => {
    const patient = new HttpClient(ORIGIN);
    const { email } = await signUp(patient, server.url);

    const run = await runCli(['reset-password', '--email', email.toUpperCase()], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const link = /https:\/\/health\.example\.org\/reset-password\?token=([A-Za-z0-9_-]{43})\s*$/.exec(run.stdout);
    expect(link, run.stdout).not.toBeNull();
    expect(run.stdout).toContain(`Password reset link for ${email}`);
    const token = link![1]!;

    const done = await new HttpClient(ORIGIN).post(server.url, '/api/auth/reset-password', {
      token,
      newPassword: 'operator handed kestrel',
    });
    expect(done.status).toBe(200);
    expect((await patient.get(server.url, '/api/auth/check-auth')).status).toBe(401);
    expect((await new HttpClient(ORIGIN).post(server.url, '/api/auth/login', { email, password: PASSWORD })).status).toBe(401);
    expect((await new HttpClient(ORIGIN).post(server.url, '/api/auth/login', { email, password: 'operator handed kestrel' })).status).toBe(
      200,
    );
    expect(
      (await new HttpClient(ORIGIN).post(server.url, '/api/auth/reset-password', { token, newPassword: 'another kestrel here' })).status,
    ).toBe(400);
  });

  it('a second run replaces the first link', async () => {
    const { email } = await signUp(new HttpClient(ORIGIN), server.url);
    const first = /token=(\S+)/.exec((await runCli(['reset-password', '--email', email], env)).stdout)?.[1] ?? '';
    const second = /token=(\S+)/.exec((await runCli(['reset-password', '--email', email], env)).stdout)?.[1] ?? '';
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    expect(
      (await new HttpClient(ORIGIN).post(server.url, '/api/auth/reset-password', { token: first, newPassword: 'first link kestrel' }))
        .status,
    ).toBe(404);
    expect(
      (await new HttpClient(ORIGIN).post(server.url, '/api/auth/reset-password', { token: second, newPassword: 'second link kestrel' }))
        .status,
    ).toBe(200);
  });

  it('says so, and prints no link, for an email no account uses, a malformed one, or none', async () => {
    const unknown = await runCli(['reset-password', '--email', 'nobody@example.org'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('reset-password: no account uses nobody@example.org');
    expect(unknown.stdout).toBe('');
    const malformed = await runCli(['reset-password', '--email', 'not an address'], env);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain('is not an email address');
    const missing = await runCli(['reset-password'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('reset-password takes --email <address>');
    expect(`${unknown.stdout}${malformed.stdout}${missing.stdout}`).not.toContain('token=');
  });
});
