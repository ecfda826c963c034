import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isUtf8 } from 'node:buffer';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import type { Config } from '../config';
import { HttpError, badRequest, forbidden } from '../lib/http-errors';
import { withCode } from './errors';
import { UNSTORABLE_TEXT_MESSAGE, hasUnstorableText } from '../lib/storable-text';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A public endpoint that other sites call on purpose, without our Origin and without cookies
     * (the SMART Health Link manifest): the one exception to the CSRF origin check (DESIGN §5).
     */
    crossOriginWrites?: true;
    /** Answers whatever the Host header says (GET /api/health, for a load balancer's probe by address). */
    anyHost?: true;
  }
}

/** Names of this machine: when PUBLIC_URL is one of them, any of them is PUBLIC_URL's host (DESIGN §5). */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

export const UNKNOWN_HOST = 'This server does not answer for that host name. Use the address in PUBLIC_URL.';
export const NOT_UTF8 = 'The request body is not valid UTF-8';

/** The host names the Host header may carry: PUBLIC_URL's, and every loopback name when PUBLIC_URL is on this machine. */
export function allowedHostNames(config: Config): ReadonlySet<string> {
  const own = new URL(config.publicUrl).hostname.toLowerCase();
  return new Set(LOOPBACK_NAMES.includes(own) ? [own, ...LOOPBACK_NAMES] : [own]);
}

/** `host[:port]` → the lower-cased host name (an IPv6 literal keeps its brackets); '' when there is none. */
function hostNameOf(authority: string | undefined): string {
  if (!authority) return '';
  const end = authority.startsWith('[') ? authority.indexOf(']') + 1 : authority.indexOf(':');
  return (end > 0 ? authority.slice(0, end) : authority).toLowerCase();
}

/**
 * An absolute-form request line (`POST http://host/api/…`, RFC 9112 §3.2.2) carries its own
 * authority, which a server must prefer to Host: answers its host name, or null for the usual
 * origin form (`/api/…`). Plain string work: scheme, "//", then the authority up to the path.
 */
function absoluteFormHost(url: string): string | null {
  if (url.startsWith('/') || url === '*') return null;
  const start = url.indexOf('//');
  if (start < 0) return '';
  const rest = url.slice(start + 2);
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  const at = authority.lastIndexOf('@');
  return hostNameOf(at < 0 ? authority : authority.slice(at + 1));
}

/**
 * The path a request addresses, as the router reads it: the route's own pattern when one answers,
 * else the URL without an absolute form's scheme and authority, percent-decoded. Whether an
 * answer is the API's is decided on this, never on the raw URL's spelling (`/%61pi/…`).
 */
export function routedPath(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route) return route;
  let url = request.url;
  if (!url.startsWith('/')) {
    const start = url.indexOf('//');
    const slash = start < 0 ? -1 : url.indexOf('/', start + 2);
    url = slash < 0 ? '/' : url.slice(slash);
  }
  const cut = url.search(/[?#]/);
  const path = cut < 0 ? url : url.slice(0, cut);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

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
      .headers(routedPath(request).startsWith('/api/') ? headers.api : headers.document)
      .code(400)
      .send(withCode({ message: error.code === 'FST_ERR_BAD_URL' ? 'Malformed URL' : 'Bad request' }));
  };
}

/** `headers` is securityHeaders(config), made once by the caller and shared with frameworkErrorHandler. */
export async function registerSecurity(app: FastifyInstance, config: Config, headers: ReturnType<typeof securityHeaders>): Promise<void> {
  const hostNames = allowedHostNames(config);
  // One synchronous hook for what every request needs (DESIGN §5), all decided on the route that
  // will answer, never on how the URL is spelled: the headers — API answers are never cached
  // (health data must not sit in a shared or browser cache; a route may still set its own
  // Cache-Control) —, the Host check (a DNS-rebinding page cannot reach us under a name of its
  // own) and the CSRF origin check on every state-changing request, whatever its path.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers(routedPath(request).startsWith('/api/') ? headers.api : headers.document);
    const route = request.routeOptions.config;
    // `request.host` is X-Forwarded-Host's only when TRUST_PROXY is set.
    const absolute = absoluteFormHost(request.raw.url ?? '/');
    if (!route.anyHost && (!hostNames.has(hostNameOf(request.host)) || (absolute !== null && !hostNames.has(absolute)))) {
      done(new HttpError(421, UNKNOWN_HOST));
      return;
    }
    done(
      !SAFE_METHODS.has(request.method) && !route.crossOriginWrites && !isSameOrigin(request, config)
        ? forbidden('Cross-origin request refused')
        : undefined,
    );
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
  // (SPEC §7 toggles and mark-all-read are sent with empty bodies). Bytes that are not UTF-8 are a
  // 400 (DESIGN §5), never text decoded with U+FFFD in their place.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) {
      done(badRequest(NOT_UTF8), undefined);
      return;
    }
    const text = bytes.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, text, (err, value) => {
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
