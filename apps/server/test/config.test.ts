// DESIGN §1: configuration is environment variables, validated once at start-up; a bad value stops
// the process with one clear line naming the variable.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { SERVER_ENTRY } from './server-process';

const KEY = Buffer.alloc(32, 9).toString('base64');

describe('loadConfig', () => {
  it('has the defaults of DESIGN §1', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      publicUrl: 'http://localhost:3000',
      secureCookies: false,
      masterKey: undefined,
      storage: { driver: 'local' },
      maxUploadMb: 50,
      maxUploadBytes: 50 * 1024 * 1024,
      storageQuotaMb: 5120,
      storageQuotaBytes: 5120 * 1024 * 1024,
      sessionIdleMs: 30 * 60_000,
      sessionMaxMs: 12 * 3_600_000,
      rateLimitPerMin: 600,
      signupLimitPerHour: 10,
      signupMode: 'open',
      logLevel: 'info',
    });
  });

  it('reads every variable, and treats an empty one as unset', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@db/kinchart',
      PUBLIC_URL: 'https://health.example.org/',
      MASTER_KEY: KEY,
      MAX_UPLOAD_MB: '100',
      STORAGE_QUOTA_MB: '200',
      SESSION_IDLE_MIN: '5',
      SESSION_MAX_HOURS: '2',
      RATE_LIMIT_PER_MIN: '0',
      SIGNUP_LIMIT_PER_HOUR: '3',
      SIGNUP_MODE: 'invite',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      STORAGE: '',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u:p@db/kinchart',
      publicUrl: 'https://health.example.org',
      publicOrigin: 'https://health.example.org',
      secureCookies: true,
      masterKey: KEY,
      maxUploadBytes: 100 * 1024 * 1024,
      storageQuotaBytes: 200 * 1024 * 1024,
      sessionIdleMs: 5 * 60_000,
      sessionMaxMs: 2 * 3_600_000,
      rateLimitPerMin: 0,
      signupLimitPerHour: 3,
      signupMode: 'invite',
      trustProxy: true,
      logLevel: 'warn',
      storage: { driver: 'local' },
    });
    expect(loadConfig({ MASTER_KEY: KEY.replace(/=$/, '') }).masterKey).toBe(KEY.replace(/=$/, ''));
  });

  const bad: [string, string, RegExp?][] = [
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['MAX_UPLOAD_MB', '0'],
    ['MAX_UPLOAD_MB', 'lots'],
    ['STORAGE_QUOTA_MB', '0'],
    ['STORAGE_QUOTA_MB', '1.5'],
    ['STORAGE_QUOTA_MB', 'plenty'],
    ['SESSION_IDLE_MIN', '-5'],
    ['RATE_LIMIT_PER_MIN', '-1'],
    ['SIGNUP_LIMIT_PER_HOUR', '-1'],
    ['SIGNUP_LIMIT_PER_HOUR', 'many'],
    ['SIGNUP_MODE', 'invitation', /open, invite or closed/],
    ['SIGNUP_MODE', 'OPEN', /open, invite or closed/],
    ['DATABASE_URL', 'mysql://x', /postgres:\/\//],
    ['PUBLIC_URL', 'not a url'],
    ['PUBLIC_URL', 'ftp://files.example.org', /http:\/\/ or https:\/\//],
    ['MASTER_KEY', 'short', /32 bytes/],
    // Node's base64 decoder skips characters it does not know; the key must still be refused.
    ['MASTER_KEY', `${'a'.repeat(43)}!`, /32 bytes/],
    ['MASTER_KEY', `${KEY.slice(0, 20)} ${KEY.slice(20)}`, /32 bytes/],
    ['STORAGE', 'ftp'],
    ['TRUST_PROXY', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['SMTP_URL', 'mail.example:587', /smtp:\/\//],
    ['SMTP_URL', 'http://mail.example', /smtp:\/\//],
    ['MAIL_FROM', 'not an address', /email address/],
    ['MAIL_FROM', 'Kinchart <kinchart@example.com>\r\nBcc: x@example.com', /email address/],
  ];
  for (const [name, value, message] of bad) {
    it(`refuses ${name}=${JSON.stringify(value)} with one line that names it`, () => {
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name}: [^\\n]*$`));
      if (message) expect(() => loadConfig({ [name]: value })).toThrow(message);
    });
  }

  it('asks for S3_BUCKET when STORAGE=s3', () => {
    expect(() => loadConfig({ STORAGE: 's3' })).toThrow('Invalid configuration: S3_BUCKET: required when STORAGE=s3');
    expect(loadConfig({ STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9000' }).storage).toMatchObject({
      driver: 's3',
      bucket: 'b',
    });
  });

  it('turns email on with SMTP_URL and MAIL_FROM, off without SMTP_URL, and asks for MAIL_FROM with SMTP_URL', () => {
    expect(loadConfig({}).mail).toBeUndefined();
    expect(loadConfig({ MAIL_FROM: 'kinchart@example.com' }).mail).toBeUndefined();
    expect(loadConfig({ SMTP_URL: 'smtp://user:pass@mail.example:587', MAIL_FROM: 'Kinchart <kinchart@example.com>' }).mail).toEqual({
      smtpUrl: 'smtp://user:pass@mail.example:587',
      from: 'Kinchart <kinchart@example.com>',
    });
    expect(loadConfig({ SMTP_URL: 'smtps://mail.example', MAIL_FROM: 'kinchart@example.com' }).mail?.from).toBe('kinchart@example.com');
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example:587' })).toThrow(
      /^Invalid configuration: MAIL_FROM: required when SMTP_URL is set$/,
    );
  });
});

describe('the server process', () => {
  it('stops with exit code 1 and one line on stderr naming the variable', () => {
    const env = { PATH: process.env.PATH, PORT: 'abc', DATA_DIR: path.join(os.tmpdir(), 'kinchart-never-created') };
    const run = spawnSync(process.execPath, [SERVER_ENTRY], { env, encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^Invalid configuration: PORT: /)]);
  });
});
