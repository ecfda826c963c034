import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/**
 * Strips secrets that can travel in a URL: emergency PINs (`?pin=`), share-link tokens (query or
 * `/shared/{token}` path), and file names (`DELETE /api/user/files/{fileName}` — health data).
 */
export function redactUrl(url: string): string {
  return url
    .replace(/([?&](?:pin|token|passcode)=)[^&#]*/gi, '$1[redacted]')
    .replace(/^(\/(?:api\/)?shared\/)[^/?#]+/, '$1[redacted]')
    .replace(new RegExp(`^(/api/user/files/)(?!(?:share-links|${UUID})(?:[/?#]|$))[^?#]+`, 'i'), '$1[redacted]');
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
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: redactUrl(req.url), id: req.id }),
    },
  };
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/**
 * Fastify's `childLoggerFactory`: a request's logger (bound to its request id) is made on its first
 * enabled log call. pino builds a child — bindings serialized, methods bound — for every request,
 * and above `info` nearly no request ever writes through it (about a twentieth of a small request's
 * time; docs/decisions/0007).
 */
export function lazyChildLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  // A route with its own level needs its own child at once.
  if (options.level) return logger.child(bindings, options);
  let child: FastifyBaseLogger | undefined;
  // pino answers isLevelEnabled; Fastify's stand-in for "no logger" does not (and logs nothing).
  const parent = logger as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  const enabled = (level: string) => parent.isLevelEnabled?.(level) ?? true;
  const real = () => (child ??= logger.child(bindings, options));
  const lazy = {
    child: (b: Bindings, o?: ChildLoggerOptions) => real().child(b, o),
    silent: () => {},
    get level() {
      return real().level;
    },
    set level(value: string) {
      real().level = value;
    },
  } as Record<string, unknown>;
  for (const level of LEVELS) {
    lazy[level] = (...args: unknown[]) => {
      if (enabled(level)) real()[level](...(args as [string]));
    };
  }
  return lazy as unknown as FastifyBaseLogger;
}
