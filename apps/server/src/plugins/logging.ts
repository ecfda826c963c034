import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import pino from 'pino';
import type { Bindings, ChildLoggerOptions } from 'pino';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** Query keys whose values are secrets, compared after percent-decoding (`?%70in=` is `?pin=` to the router). */
// `next` is the return path after sign-in, which can be an invitation's page (/invite/{token}).
// `code`, `state` and `session_state` come back from the identity provider to the single sign-on
// callback (docs/decisions/0029): an authorization code, and the key to its sign-on's PKCE verifier.
// `q` is what someone searched their records for (GET /api/user/search, the /search page): health data.
const SECRET_KEYS = new Set(['pin', 'token', 'passcode', 'next', 'code', 'state', 'session_state', 'q']);

/** Percent-decoded as the router reads it; in a query, `+` is a space too. Undecodable text stays as it is. */
function decoded(text: string, plusIsSpace = false): string {
  try {
    return decodeURIComponent(plusIsSpace ? text.replace(/\+/g, ' ') : text);
  } catch {
    return text;
  }
}

/**
 * Path prefixes whose next segment is a secret: share-link tokens, emergency share ids (page and
 * API, own and family; anyone holding one can lock the code with wrong PINs), SMART Health Link
 * manifest ids and file-location tokens (`/shl-files/{token}`, docs/decisions/0020), and invitation
 * tokens (page, preview and accept; DESIGN §11), the public ids of sessions (which open nothing
 * alone, but stay out of logs like every session key, docs/decisions/0024), and private calendar
 * feed tokens (`/api/calendar/{token}.ics`, docs/decisions/0045). Compared on the
 * percent-decoded path, as the router reads it.
 */
const SECRET_SEGMENT_PREFIXES = [
  '/shared/',
  '/api/shared/',
  '/emergency/',
  '/family/emergency/',
  '/api/user/emergency/',
  '/api/user/family/emergency/',
  '/shl/',
  '/shl-files/',
  '/invite/',
  '/api/invitations/',
  '/api/user/invitations/',
  '/api/auth/sessions/',
  '/api/calendar/',
];
/** Prefixes whose whole rest is the secret: a calendar feed has no route below its token, so nothing after the prefix is kept. */
const SECRET_REST_PREFIXES = new Set(['/api/calendar/']);
const FILES_PREFIX = '/api/user/files/';
const FILE_ROUTE_SEGMENT = new RegExp(`^(?:share-links|${UUID})$`, 'i');

/**
 * Strips secrets that can travel in a URL: emergency PINs (`?pin=`), share-link tokens (query or
 * `/shared/{token}` path), emergency share ids, SMART Health Link ids, invitation tokens, and file names
 * (`DELETE /api/user/files/{fileName}` — health data). The path and the query keys are matched as
 * the router reads them, percent-decoded, so no spelling of a URL that reaches a route gets its
 * secret into the log. Plain string work, no regular expression over the whole URL (DESIGN §3).
 */
export function redactUrl(url: string): string {
  if (!url.startsWith('/')) url = originForm(url);
  const cut = url.search(/[?#]/);
  // Runs of slashes read as one: a path no route answers (`/api/calendar//{token}.ics`) still reaches the log.
  const path = collapseSlashes(decoded(cut < 0 ? url : url.slice(0, cut)));
  const query = cut < 0 ? '' : url.slice(cut);
  return redactPath(path) + redactQuery(query);
}

/**
 * An absolute-form request line (`GET http://host/api/…`) reaches the same routes as its path:
 * scheme and authority go, so what follows is matched like any path ("/" when none follows).
 */
function originForm(url: string): string {
  const start = url.indexOf('//');
  if (start < 0) return url;
  const rest = url.slice(start + 2);
  const end = rest.search(/[/?#]/);
  if (end < 0) return '/';
  return rest[end] === '/' ? rest.slice(end) : `/${rest.slice(end)}`;
}

/** `//api///x` → `/api/x` (one quantifier over one character: linear). */
const collapseSlashes = (path: string): string => path.replace(/\/{2,}/g, '/');

function redactPath(path: string): string {
  const lower = path.toLowerCase();
  for (const prefix of SECRET_SEGMENT_PREFIXES) {
    if (!lower.startsWith(prefix)) continue;
    if (SECRET_REST_PREFIXES.has(prefix)) return `${path.slice(0, prefix.length)}[redacted]`;
    const end = path.indexOf('/', prefix.length);
    return `${path.slice(0, prefix.length)}[redacted]${end < 0 ? '' : path.slice(end)}`;
  }
  if (lower.startsWith(FILES_PREFIX)) {
    const rest = path.slice(FILES_PREFIX.length);
    const slash = rest.indexOf('/');
    const segment = slash < 0 ? rest : rest.slice(0, slash);
    if (segment !== '' && !FILE_ROUTE_SEGMENT.test(segment)) return `${FILES_PREFIX}[redacted]`;
  }
  return path;
}

/** Each `key=value` between `?`, `&` and `#` whose key is a secret gets its value replaced. */
function redactQuery(query: string): string {
  return query
    .split(/([?&#])/)
    .map((part) => {
      const eq = part.indexOf('=');
      return eq >= 0 && SECRET_KEYS.has(decoded(part.slice(0, eq), true).toLowerCase()) ? `${part.slice(0, eq)}=[redacted]` : part;
    })
    .join('');
}

// DESIGN §5: logs redact cookies, passwords and PINs, and never contain health data. Bodies are
// never logged; request logs carry method, redacted URL and the request id only.
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        '*.password',
        '*.currentPassword',
        '*.newPassword',
        '*.pin',
        '*.passcode',
        '*.token',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: redactUrl(req.url), id: req.id }),
      // An error may carry the URL it happened on (Fastify's reply errors, the response schema's):
      // redacted like the request log's.
      err: (err: Error) => {
        const serialized = pino.stdSerializers.err(err);
        return typeof serialized.url === 'string' ? { ...serialized, url: redactUrl(serialized.url) } : serialized;
      },
    },
  };
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** A request's logger, bound to its request id, that makes its pino child on the first enabled call. */
class LazyChildLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean },
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get #real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  #log(level: Level, args: unknown[]): void {
    // pino answers isLevelEnabled; Fastify's stand-in for "no logger" does not (and logs nothing).
    if (this.parent.isLevelEnabled?.(level) ?? true) this.#real[level](...(args as [string]));
  }

  get level(): string {
    return this.#real.level;
  }
  set level(value: string) {
    this.#real.level = value;
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real.child(bindings, options);
  }
  silent(): void {}
  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
}

/**
 * Fastify's `childLoggerFactory`: a request's logger (bound to its request id) is made on its first
 * enabled log call. pino builds a child — bindings serialized, methods bound — for every request,
 * and above `info` nearly no request ever writes through it (docs/decisions/0007).
 */
export function lazyChildLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  // A route with its own level needs its own child at once.
  if (options.level) return logger.child(bindings, options);
  return new LazyChildLogger(logger, bindings, options);
}
