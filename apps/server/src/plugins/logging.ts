import type { FastifyServerOptions } from 'fastify';

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
