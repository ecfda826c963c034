import { z } from 'zod';
import path from 'node:path';
import { isMasterKeyText } from './storage/master-key';
import { trimEndChars } from '@kinchart/shared/text';
import { SIGNUP_MODES } from '@kinchart/shared/auth';
import { DEFAULT_SSO_NAME } from '@kinchart/shared/auth-texts';
import type { SignupMode } from '@kinchart/shared/auth';

// DESIGN §1: configuration is environment variables, validated once at start-up.
// This is the only module that reads process.env.

const boolish = z.enum(['1', '0', 'true', 'false', 'yes', 'no']).transform((v) => v === '1' || v === 'true' || v === 'yes');

const positiveInt = (name: string) =>
  z.coerce
    .number({ message: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .positive(`${name} must be positive`);

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// (leave it unset for SQLite)')
    .optional(),
  PUBLIC_URL: z.url({ protocol: /^https?$/, message: 'PUBLIC_URL must be an http:// or https:// URL' }).optional(),
  MASTER_KEY: z.string().refine(isMasterKeyText, 'MASTER_KEY must be 32 bytes, base64-encoded').optional(),
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: boolish.default(false),
  MAX_UPLOAD_MB: positiveInt('MAX_UPLOAD_MB').max(2000).default(50),
  // DESIGN §1 and §5: stored bytes per account, over uploads and imports (1 PiB at most keeps the byte
  // count an exact integer).
  STORAGE_QUOTA_MB: positiveInt('STORAGE_QUOTA_MB')
    .max(1024 ** 3)
    .default(5120),
  SESSION_IDLE_MIN: positiveInt('SESSION_IDLE_MIN').default(30),
  SESSION_MAX_HOURS: positiveInt('SESSION_MAX_HOURS').default(12),
  RATE_LIMIT_PER_MIN: z.coerce.number().int().min(0).default(600),
  SIGNUP_LIMIT_PER_HOUR: z.coerce
    .number({ message: 'SIGNUP_LIMIT_PER_HOUR must be a number' })
    .int('SIGNUP_LIMIT_PER_HOUR must be a whole number')
    .min(0, 'SIGNUP_LIMIT_PER_HOUR must be 0 or more')
    .default(10),
  // Who may create an account (docs/decisions/0025): anyone, only through an invitation link, or nobody.
  SIGNUP_MODE: z.enum(SIGNUP_MODES, { message: 'SIGNUP_MODE must be open, invite or closed' }).default('open'),
  TRUST_PROXY: boolish.optional(),
  // DESIGN §1: email for emergency notifications; unset → no email.
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, message: 'SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example:587' })
    .optional(),
  MAIL_FROM: z
    .string()
    .regex(
      /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/,
      'MAIL_FROM must be an email address, e.g. Kinchart <kinchart@example.com>',
    )
    .optional(),
  // Single sign-on with OpenID Connect (docs/decisions/0029): on when the first three are all set.
  OIDC_ISSUER: z.url({ protocol: /^https?$/, message: 'OIDC_ISSUER must be an https:// URL (http:// only on this machine)' }).optional(),
  OIDC_CLIENT_ID: z.string().max(1000, 'OIDC_CLIENT_ID is too long').optional(),
  OIDC_CLIENT_SECRET: z.string().max(1000, 'OIDC_CLIENT_SECRET is too long').optional(),
  OIDC_NAME: z.string().trim().min(1).max(40, 'OIDC_NAME must be at most 40 characters').optional(),
  // Web Push (issue 32, DESIGN §13): both keys or neither (then generated once into DATA_DIR).
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{86,88}$/, 'VAPID_PUBLIC_KEY must be a P-256 public key, base64url')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{42,44}$/, 'VAPID_PRIVATE_KEY must be a P-256 private key, base64url')
    .optional(),
  PUSH_ALLOWED_HOSTS: z.string().max(4000).optional(),
  // Issue 33 (docs/decisions/0047): files read for their text at once by this process; 0 = this instance reads none.
  TEXT_WORKERS: z.coerce
    .number({ message: 'TEXT_WORKERS must be a number' })
    .int('TEXT_WORKERS must be a whole number')
    .min(0, 'TEXT_WORKERS must be 0 or more')
    .max(16, 'TEXT_WORKERS must be at most 16')
    .default(1),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  publicOrigin: string;
  secureCookies: boolean;
  masterKey: string | undefined;
  storage:
    | { driver: 'local' }
    | {
        driver: 's3';
        endpoint: string | undefined;
        bucket: string;
        region: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
      };
  maxUploadBytes: number;
  maxUploadMb: number;
  storageQuotaBytes: number;
  storageQuotaMb: number;
  sessionIdleMs: number;
  sessionMaxMs: number;
  rateLimitPerMin: number;
  /** Sign-ups per client address an hour, counted in the database (DESIGN §5); 0 turns it off. */
  signupLimitPerHour: number;
  /** Who may create an account: anyone, holders of an invitation link, or nobody (docs/decisions/0025). */
  signupMode: SignupMode;
  trustProxy: boolean;
  logLevel: string;
  /** DESIGN §1: SMTP server and sender for notification and password reset emails; undefined turns email off. */
  mail: { smtpUrl: string; from: string } | undefined;
  /** Single sign-on with an OpenID Connect provider (docs/decisions/0029); undefined turns it off. */
  oidc: OidcConfig | undefined;
  /** Web Push (issue 32, docs/decisions/0044): the VAPID keys when set (else generated into DATA_DIR) and the hosts a push endpoint may name. */
  push: PushConfig;
  /** Issue 33: how many files this process reads for text at once (TEXT_WORKERS); 0 takes no jobs. */
  textWorkers: number;
}

export interface PushConfig {
  vapid: { publicKey: string; privateKey: string } | undefined;
  /**
   * Exact host names, or "*.example.com" for any subdomain of example.com (not example.com itself);
   * without a port an entry matches the host on any port, with ":port" only that port.
   */
  allowedHosts: string[];
}

/** The browsers' push services (Chrome/Edge's FCM, Firefox, Windows, Safari). */
export const DEFAULT_PUSH_HOSTS = ['fcm.googleapis.com', 'updates.push.services.mozilla.com', '*.notify.windows.com', 'web.push.apple.com'];

const PUSH_HOST = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/;

/** PUSH_ALLOWED_HOSTS: comma-separated host names (lower case; "*." only as a whole first label); VAPID keys both or neither. */
function pushConfig(e: z.infer<typeof envSchema>): PushConfig {
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    const missing = e.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY';
    throw new ConfigError(`Invalid configuration: ${missing}: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together (or leave both unset)`);
  }
  const allowedHosts =
    e.PUSH_ALLOWED_HOSTS === undefined
      ? DEFAULT_PUSH_HOSTS
      : e.PUSH_ALLOWED_HOSTS.split(',')
          .map((h) => h.trim().toLowerCase())
          .filter((h) => h.length > 0);
  const bad = allowedHosts.find((h) => h.length > 253 || !PUSH_HOST.test(h));
  if (bad !== undefined) throw new ConfigError(`Invalid configuration: PUSH_ALLOWED_HOSTS: "${bad}" is not a host name`);
  return {
    vapid: e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY } : undefined,
    allowedHosts,
  };
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The provider's name on the buttons ("Sign in with {name}"); OIDC_NAME, else "SSO". */
  name: string;
  /** http:// is allowed for an issuer on this machine only (a test or development provider). */
  allowInsecureRequests: boolean;
}

const OIDC_VARIABLES = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** OIDC_* all set, or none: half a configuration stops the start-up rather than leaving sign-in half on. */
function oidcConfig(e: z.infer<typeof envSchema>): OidcConfig | undefined {
  const missing = OIDC_VARIABLES.filter((name) => !e[name]);
  if (missing.length === OIDC_VARIABLES.length) {
    if (e.OIDC_NAME)
      throw new ConfigError('Invalid configuration: OIDC_NAME: set only with OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
    return undefined;
  }
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration: ${missing[0]}: required for single sign-on (OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together)`,
    );
  }
  const issuer = new URL(e.OIDC_ISSUER ?? '');
  const loopback = LOOPBACK_HOSTS.has(issuer.hostname);
  if (issuer.protocol !== 'https:' && !loopback) {
    throw new ConfigError('Invalid configuration: OIDC_ISSUER: must be an https:// URL (http:// only on this machine)');
  }
  return {
    // The issuer identifier as the operator wrote it: discovery compares it exactly (OpenID Connect Discovery 4.3).
    issuer: e.OIDC_ISSUER ?? '',
    clientId: e.OIDC_CLIENT_ID ?? '',
    clientSecret: e.OIDC_CLIENT_SECRET ?? '',
    name: e.OIDC_NAME ?? DEFAULT_SSO_NAME,
    allowInsecureRequests: issuer.protocol === 'http:' && loopback,
  };
}

export class ConfigError extends Error {}

/** Parses an environment into a Config; throws ConfigError with one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset", as most shells and .env files intend.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(`Invalid configuration: ${name}: ${issue?.message ?? 'invalid value'}`);
  }
  const e = parsed.data;
  if (e.STORAGE === 's3' && !e.S3_BUCKET) {
    throw new ConfigError('Invalid configuration: S3_BUCKET: required when STORAGE=s3');
  }
  if (e.SMTP_URL && !e.MAIL_FROM) {
    throw new ConfigError('Invalid configuration: MAIL_FROM: required when SMTP_URL is set');
  }
  if (e.SMTP_URL && !new URL(e.SMTP_URL).hostname) {
    throw new ConfigError('Invalid configuration: SMTP_URL: must name a host');
  }
  const oidc = oidcConfig(e);
  const publicUrl = trimEndChars(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`, '/');
  const publicOrigin = new URL(publicUrl).origin;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    publicUrl,
    publicOrigin,
    secureCookies: publicOrigin.startsWith('https:'),
    masterKey: e.MASTER_KEY,
    storage:
      e.STORAGE === 's3'
        ? {
            driver: 's3',
            endpoint: e.S3_ENDPOINT,
            bucket: e.S3_BUCKET ?? '',
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : { driver: 'local' },
    maxUploadBytes: e.MAX_UPLOAD_MB * 1024 * 1024,
    maxUploadMb: e.MAX_UPLOAD_MB,
    storageQuotaBytes: e.STORAGE_QUOTA_MB * 1024 * 1024,
    storageQuotaMb: e.STORAGE_QUOTA_MB,
    sessionIdleMs: e.SESSION_IDLE_MIN * 60_000,
    sessionMaxMs: e.SESSION_MAX_HOURS * 3_600_000,
    rateLimitPerMin: e.RATE_LIMIT_PER_MIN,
    signupLimitPerHour: e.SIGNUP_LIMIT_PER_HOUR,
    signupMode: e.SIGNUP_MODE,
    trustProxy: e.TRUST_PROXY ?? false,
    logLevel: e.LOG_LEVEL,
    mail: e.SMTP_URL && e.MAIL_FROM ? { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM } : undefined,
    oidc,
    push: pushConfig(e),
    textWorkers: e.TEXT_WORKERS,
  };
}
