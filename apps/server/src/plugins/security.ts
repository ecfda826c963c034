import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import type { Config } from '../config';
import { badRequest, forbidden } from '../lib/http-errors';
import { UNSTORABLE_TEXT_MESSAGE, hasUnstorableText } from '../lib/storable-text';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const API_HEADERS = new Set([
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'x-frame-options',
  'cross-origin-resource-policy',
  'strict-transport-security',
]);

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
 * request's own scheme, host and port (so a proxy that rewrites Host still works). SameSite=Lax is the second wall.
 */
export function isSameOrigin(request: FastifyRequest, config: Config): boolean {
  const origin = originOf(request.headers.origin) ?? originOf(request.headers.referer);
  if (!origin) return false;
  if (origin === config.publicOrigin) return true;
  // The request's own origin is its scheme, host and port together: an https page must not pass
  // for an http deployment (or the reverse). `request.protocol` is the socket's, or
  // X-Forwarded-Proto's when TRUST_PROXY is set.
  const host = request.headers.host;
  return !!host && origin === originOf(`${request.protocol}://${host}`);
}

/**
 * DESIGN §5 response headers, from helmet. They depend on nothing in the request, so helmet runs
 * once, here (@fastify/helmet would rebuild helmet on every request: about a tenth of a small
 * request's time — docs/decisions/0007).
 *
 * `document` is helmet's whole set, for pages, assets and anything a browser may render. `api` is
 * for /api/ answers, which scripts fetch: it keeps what protects an answer — the CSP, nosniff,
 * no Referer, no cross-origin reads, no framing, HSTS — and leaves out headers that only govern a
 * rendered document's window (COOP, Origin-Agent-Cluster, DNS prefetch, legacy IE and Flash).
 */
export function securityHeaders(config: Config): { document: Readonly<Record<string, string>>; api: Readonly<Record<string, string>> } {
  const headers: Record<string, string> = {};
  const collect = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet({
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
  })({} as IncomingMessage, collect as unknown as ServerResponse, (error?: unknown) => {
    // helmet throws on a bad option rather than passing it here; this only guards the contract.
    if (error) throw error instanceof Error ? error : new Error('helmet refused its options');
  });
  const api = Object.fromEntries(Object.entries(headers).filter(([name]) => API_HEADERS.has(name)));
  return { document: Object.freeze(headers), api: Object.freeze({ ...api, 'cache-control': 'no-store' }) };
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot decode (`/api/user/%zz`) is refused before
 * any hook runs, so the headers above and the `{ message }` shape are applied here too.
 */
export function frameworkErrorHandler(
  headers: ReturnType<typeof securityHeaders>,
): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, request, reply) => {
    void reply
      .headers(request.url.startsWith('/api/') ? headers.api : headers.document)
      .code(400)
      .send({ message: error.code === 'FST_ERR_BAD_URL' ? 'Malformed URL' : 'Bad request' });
  };
}

/** `headers` is securityHeaders(config), made once by the caller and shared with frameworkErrorHandler. */
export async function registerSecurity(app: FastifyInstance, config: Config, headers: ReturnType<typeof securityHeaders>): Promise<void> {
  // One synchronous hook for what every request needs: the headers — API answers are never cached
  // (health data must not sit in a shared or browser cache; a route may still set its own
  // Cache-Control) — and the CSRF origin check on state-changing API requests.
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith('/api/')) {
      void reply.headers(headers.document);
      done();
      return;
    }
    void reply.headers(headers.api);
    done(!SAFE_METHODS.has(request.method) && !isSameOrigin(request, config) ? forbidden('Cross-origin request refused') : undefined);
  });

  if (config.rateLimitPerMin > 0) {
    await app.register(rateLimit, { max: config.rateLimitPerMin, timeWindow: '1 minute' });
  }

  // DESIGN §5, bad input: a NUL or an unpaired surrogate in an id, a query or a JSON body is a 400 —
  // never a database error (PostgreSQL) or text silently stored as U+FFFD. Multipart fields are
  // checked where the upload reads them.
  app.addHook('preValidation', (request, _reply, done) => {
    const unstorable = hasUnstorableText(request.params) || hasUnstorableText(request.query) || hasUnstorableText(request.body);
    done(unstorable ? badRequest(UNSTORABLE_TEXT_MESSAGE) : undefined);
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
