import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { Config } from '../config';
import { badRequest, forbidden } from '../lib/http-errors';
import { UNSTORABLE_TEXT_MESSAGE, hasUnstorableText } from '../lib/storable-text';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(value: string | undefined): string | null {
  if (!value) return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/**
 * DESIGN §5 CSRF: a state-changing request must come from our own origin — PUBLIC_URL's, or the
 * request's own host (so a proxy that rewrites Host still works). SameSite=Lax is the second wall.
 */
export function isSameOrigin(request: FastifyRequest, config: Config): boolean {
  const origin = originOf(request.headers.origin) ?? originOf(request.headers.referer);
  if (!origin) return false;
  if (origin === config.publicOrigin) return true;
  const host = request.headers.host;
  return !!host && (origin === `http://${host}` || origin === `https://${host}`);
}

export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // Inline style attributes and the toast library's injected <style>; no inline script.
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'", 'data:', 'blob:'],
        frameSrc: ["'self'", 'blob:'],
        upgradeInsecureRequests: config.secureCookies ? [] : null,
      },
    },
    // Share ids live in URLs: never leak them through Referer.
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: config.secureCookies ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });

  if (config.rateLimitPerMin > 0) {
    await app.register(rateLimit, { max: config.rateLimitPerMin, timeWindow: '1 minute' });
  }

  app.addHook('onRequest', async (request) => {
    if (!SAFE_METHODS.has(request.method) && request.url.startsWith('/api/') && !isSameOrigin(request, config)) {
      throw forbidden('Cross-origin request refused');
    }
  });

  // Issue 8 fuzzing: a NUL or an unpaired surrogate in an id, a query or a JSON body is a 400 —
  // never a database error (PostgreSQL) or text silently stored as U+FFFD. Multipart fields are
  // checked where the upload reads them.
  app.addHook('preValidation', async (request) => {
    if (hasUnstorableText(request.params) || hasUnstorableText(request.query) || hasUnstorableText(request.body)) {
      throw badRequest(UNSTORABLE_TEXT_MESSAGE);
    }
  });

  // Health data must never sit in a shared or browser cache.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
      void reply.header('Cache-Control', 'no-store');
    }
    return payload;
  });

  // JSON only, with the default prototype-poisoning protection; an empty body is "no body"
  // (SPEC §7 toggles and mark-all-read are sent with empty bodies).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, String(body), (err, value) => {
      if (err) {
        const error = new SyntaxError('Malformed JSON in request body') as SyntaxError & { statusCode: number };
        error.statusCode = 400;
        done(error, undefined);
        return;
      }
      done(null, value);
    });
  });
  app.removeContentTypeParser('text/plain');
}
