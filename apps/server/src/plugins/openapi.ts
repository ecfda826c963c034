import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifySchema } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IMPORT_TARGET_FIELD } from '@kinchart/shared/export';
import { UPLOAD_PERSON_FIELD, uploadFieldsSchema } from '@kinchart/shared/files';
import serverPackage from '../../package.json' with { type: 'json' };
import type { Config } from '../config';
import type { securityHeaders } from './security';
import { sessionCookies } from './session';
import { THEME_CSS, THEME_JS } from './openapi-theme';

/*
 * The API reference (docs/decisions/0040): an OpenAPI 3.1 document made from the schemas every route
 * already declares (the zod type provider's transform), at GET /api/openapi.json, and a reference
 * page at /api/docs from swagger-ui's files in node_modules (nothing from a CDN). Both are public:
 * they describe the routes SPEC §7 publishes and hold nothing of any account or deployment secret.
 */

export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PREFIX = '/api/docs';

/** How a route is reached: the `x-kinchart-access` mark and the tag of every operation. */
export const ROUTE_ACCESS = ['public', 'session', 'emergency', 'smart-health-link'] as const;
export type RouteAccess = (typeof ROUTE_ACCESS)[number];

/**
 * Every route that answers without a session, by kind; any other route is behind `requireUser`
 * (the session cookie). openapi.test.ts holds this list to the routes' real answers: a route marked
 * "session" answers 401 without a cookie, and no other route does — so a new public route that is
 * not listed here fails that test.
 */
const ACCESS_WITHOUT_SESSION: Readonly<Record<string, Exclude<RouteAccess, 'session'>>> = {
  '/api/health': 'public',
  '/api/config': 'public',
  [OPENAPI_PATH]: 'public',
  // Signing up and in (with each second step and passkey challenge), logging out, the way back in,
  // proving an email, and single sign-on's start, callback and account link (SPEC §2, DESIGN §5).
  '/api/auth/signup': 'public',
  '/api/auth/login': 'public',
  '/api/auth/login/mfa': 'public',
  '/api/auth/login/mfa/options': 'public',
  '/api/auth/login/passkey': 'public',
  '/api/auth/login/passkey/options': 'public',
  '/api/auth/logout': 'public',
  '/api/auth/forgot-password': 'public',
  '/api/auth/reset-password': 'public',
  '/api/auth/verify-email': 'public',
  '/api/auth/oidc/start': 'public',
  '/api/auth/oidc/callback': 'public',
  '/api/auth/oidc/link': 'public',
  // A file share link and an invitation's preview: the token in the path is the key (DESIGN §11).
  '/api/shared/:token': 'public',
  '/api/shared/:token/files/:fileId': 'public',
  '/api/invitations/:token': 'public',
  // A push notification's Taken / Snooze buttons: the single-use token in the body is the key (issue 32).
  '/api/push-actions': 'public',
  // The emergency page's lookups (with the PIN when one is asked), its FHIR download, and the page itself (DESIGN §7).
  '/api/user/emergency/:shareId': 'emergency',
  '/api/user/family/emergency/:shareId': 'emergency',
  '/api/user/emergency/:shareId/fhir': 'emergency',
  '/api/user/family/emergency/:shareId/fhir': 'emergency',
  '/emergency/:shareId': 'emergency',
  '/family/emergency/:shareId': 'emergency',
  // SMART Health Links: the manifest and its files' locations, called by receivers on other origins (decision 0020).
  '/shl/:manifestId': 'smart-health-link',
  '/shl-files/:token': 'smart-health-link',
};

/**
 * The success answers that are not JSON, by "METHOD path". A route's response schemas describe
 * JSON only (the zod serializer runs them), so these are described here, by the Content-Type the
 * route sends; openapi.test.ts fails on an operation whose success answer is not described.
 */
const OTHER_ANSWERS: Readonly<Record<string, { status: number; description: string; type?: string }>> = {
  'GET /api/auth/oidc/callback': {
    status: 303,
    description: 'Back to the app, on the page that says how the sign-in went (decision 0029).',
  },
  'GET /api/user/wearable-qr/card.pdf': { status: 200, type: 'application/pdf', description: 'The wallet card.' },
  'GET /api/user/family/members/:id/qr/card.pdf': { status: 200, type: 'application/pdf', description: 'The wallet card.' },
  'GET /api/user/wearable-qr/qr.png': { status: 200, type: 'image/png', description: 'The QR code image.' },
  'GET /api/user/family/members/:id/qr/qr.png': { status: 200, type: 'image/png', description: 'The QR code image.' },
  'GET /api/user/wearable-qr/lockscreen.png': { status: 200, type: 'image/png', description: 'The lock-screen image.' },
  'GET /api/user/family/members/:id/qr/lockscreen.png': { status: 200, type: 'image/png', description: 'The lock-screen image.' },
  'GET /api/user/people/:personId/immunizations.pdf': { status: 200, type: 'application/pdf', description: 'The immunization record.' },
  'GET /api/user/notifications/stream': {
    status: 200,
    type: 'text/event-stream',
    description: 'Server-sent events: each new notification as it comes (decision 0014).',
  },
  'GET /api/user/appointments.ics': { status: 200, type: 'text/calendar', description: 'The appointments as an iCalendar file.' },
  'GET /api/user/export': { status: 200, type: 'application/zip', description: 'The export archive (decision 0004).' },
  'GET /api/user/files/:id/content': { status: 200, type: '*/*', description: 'The file itself, with its own Content-Type.' },
  'GET /api/shared/:token/files/:fileId': { status: 200, type: '*/*', description: 'The shared file itself, with its own Content-Type.' },
  'GET /api/user/emergency/:shareId/fhir': {
    status: 200,
    type: 'application/fhir+json',
    description: 'The emergency summary as a FHIR Bundle.',
  },
  'GET /api/user/family/emergency/:shareId/fhir': {
    status: 200,
    type: 'application/fhir+json',
    description: 'The emergency summary as a FHIR Bundle.',
  },
  'GET /emergency/:shareId': { status: 200, type: 'text/html', description: 'The emergency page.' },
  'GET /family/emergency/:shareId': { status: 200, type: 'text/html', description: 'The emergency page.' },
  'OPTIONS /shl/:manifestId': { status: 204, description: 'CORS preflight: any origin may POST.' },
  'OPTIONS /shl-files/:token': { status: 204, description: 'CORS preflight: any origin may GET.' },
  'GET /shl-files/:token': {
    status: 200,
    type: 'application/jose',
    description: "The file's JWE, in compact serialization (SMART Health Links STU1).",
  },
};

/** An OTHER_ANSWERS entry as a response of @fastify/swagger: a body of its media type, or none. */
function otherAnswer({ status, description, type }: { status: number; description: string; type?: string }): Record<number, object> {
  return {
    [status]: type
      ? { description, content: { [type]: { schema: { type: 'string', contentMediaType: type } } } }
      : { description, type: 'null' },
  };
}

/**
 * The uploads' bodies, by "METHOD path": multipart/form-data read part by part by the service (the
 * size cap holds while reading), so the routes declare no body schema. Described here from the
 * same shared schema and field names the services read.
 */
const filePart = (description: string) => ({ type: 'string', contentMediaType: 'application/octet-stream', description });
const personPart = {
  type: 'string',
  maxLength: 100,
  description: 'Whom the file is for: a person id; the uploader when left out (DESIGN §11).',
};
const MULTIPART_BODIES: Readonly<Record<string, object>> = {
  'POST /api/user/files': {
    type: 'object',
    required: ['file'],
    properties: {
      file: filePart('The record: PDF, image, Office document or text; its first bytes decide its type.'),
      ...(z.toJSONSchema(uploadFieldsSchema, { io: 'input', unrepresentable: 'any' }).properties ?? {}),
      [UPLOAD_PERSON_FIELD]: personPart,
    },
  },
  'POST /api/user/upload': {
    type: 'object',
    required: ['file'],
    properties: { file: filePart('The file, named after itself.'), [UPLOAD_PERSON_FIELD]: personPart },
  },
  'POST /api/user/import': {
    type: 'object',
    required: ['file'],
    properties: {
      file: filePart('A Kinchart export (.zip) or a FHIR Bundle (.json).'),
      [IMPORT_TARGET_FIELD]: {
        type: 'string',
        maxLength: 64,
        description: 'Whose profile a FHIR Bundle goes to: "self" (the default) or a family member id.',
      },
    },
  },
};

export function routeAccess(url: string): RouteAccess {
  return ACCESS_WITHOUT_SESSION[url] ?? 'session';
}

const ACCESS_TAGS: { name: RouteAccess; description: string }[] = [
  { name: 'public', description: 'Answers without a session: signing up and in, public settings, share links and invitations.' },
  {
    name: 'session',
    description: 'Needs the session cookie that logging in sets; without it the answer is 401 {"message":"Not authenticated"}.',
  },
  {
    name: 'emergency',
    description: "The emergency page's lookups by share id, with the PIN in `?pin=` when the code asks for one (SPEC §4).",
  },
  {
    name: 'smart-health-link',
    description: 'SMART Health Links (STU1): the manifest and file locations, open to receivers on any origin (CORS, no cookie).',
  },
];

const DESCRIPTION = [
  'The API of Kinchart, family health records. Every request and answer body is JSON unless the operation says otherwise;',
  'an error answers `{ "message": "…" }`.',
  '',
  'A session is the HttpOnly cookie that `POST /api/auth/login` sets (`__Host-sid` on https, `sid` on http).',
  'A request that changes anything (any method but GET, HEAD and OPTIONS) must carry an `Origin` (or `Referer`) of this site,',
  'or it is refused with 403; only the SMART Health Link manifest takes requests from other origins.',
  '',
  'Each operation says how it is reached in `x-kinchart-access` and in its tag: public, session, emergency or smart-health-link.',
].join('\n');

/** What GET /api/openapi.json answers: an OpenAPI 3.1 document (the allowlist names its top-level parts). */
const openapiDocumentSchema = z.object({
  openapi: z.string(),
  info: z.object({ title: z.string(), version: z.string(), description: z.string().optional() }),
  servers: z.array(z.object({ url: z.string() })).optional(),
  tags: z.array(z.object({ name: z.string(), description: z.string().optional() })).optional(),
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
  paths: z.record(z.string(), z.unknown()),
  components: z.record(z.string(), z.unknown()).optional(),
});

type Transform = NonNullable<FastifyDynamicSwaggerOptions['transform']>;
type TransformObject = NonNullable<FastifyDynamicSwaggerOptions['transformObject']>;

/**
 * The zod type provider's transform (request schemas as their input, answers as their output),
 * then each operation's marks: its access as tag and `x-kinchart-access`, and `security: []` for
 * the routes that need no session (the document's default is the session cookie).
 */
const markedTransform: Transform = (input) => {
  const { schema, url } = jsonSchemaTransform(input) as { schema: (FastifySchema & { hide?: boolean }) | undefined; url: string };
  if (schema?.hide) return { schema, url };
  const access = routeAccess(input.url);
  const marks = { tags: [access], 'x-kinchart-access': access, ...(access === 'session' ? {} : { security: [] }) };
  const methods = typeof input.route.method === 'string' ? [input.route.method] : input.route.method;
  const other = methods.map((method) => OTHER_ANSWERS[`${method} ${input.url}`]).find((answer) => answer !== undefined);
  const response = other ? { response: { ...(schema?.response as object | undefined), ...otherAnswer(other) } } : {};
  const multipart = methods.map((method) => MULTIPART_BODIES[`${method} ${input.url}`]).find((body) => body !== undefined);
  const body = multipart ? { body: multipart, consumes: ['multipart/form-data'] } : {};
  return { schema: { ...schema, ...marks, ...response, ...body }, url };
};

/**
 * The zod type provider's transform of the whole document, then each answer that no schema
 * describes named by its status ("Not Found" rather than swagger's "Default Response").
 */
const describedTransformObject: TransformObject = (input) => {
  const document = jsonSchemaTransformObject(input);
  const paths = (document.paths ?? {}) as Record<string, Record<string, { responses?: Record<string, { description?: string }> }>>;
  for (const operation of Object.values(paths).flatMap((methods) => Object.values(methods))) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (response.description === 'Default Response') response.description = STATUS_CODES[status] ?? 'Answer';
    }
  }
  return document;
};

/**
 * Registers the document generator (before any route, so each one is collected), GET
 * /api/openapi.json and the reference page. `headers` is securityHeaders(config).
 */
export async function registerOpenApi(app: FastifyInstance, config: Config, headers: ReturnType<typeof securityHeaders>): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Kinchart', version: serverPackage.version, description: DESCRIPTION },
      servers: [{ url: config.publicUrl }],
      tags: ACCESS_TAGS,
      components: { securitySchemes: { cookieAuth: { type: 'apiKey', in: 'cookie', name: sessionCookies(config).name } } },
      security: [{ cookieAuth: [] }],
    },
    // Paths stay whole: PUBLIC_URL is an origin, and the routes' paths are the ones clients call.
    stripBasePath: false,
    transform: markedTransform,
    transformObject: describedTransformObject,
  });

  // The document is made once, on the first request, from the routes registered by then (all of them).
  let document: string | undefined;
  app.get(OPENAPI_PATH, { schema: { response: { 200: openapiDocumentSchema } } }, async (_request, reply) => {
    // Sent as the JSON text made once (the schema above documents it; it holds no account's data).
    document ??= JSON.stringify(app.swagger());
    // Public and the same for everyone: a client or a proxy may keep it for a few minutes.
    return reply.header('Cache-Control', 'public, max-age=300').type('application/json; charset=utf-8').send(document);
  });

  await app.register(async (docs) => {
    // A page, not an API answer: the document headers (helmet's whole set, the same CSP). The page
    // runs swagger-ui's own files, which need no inline script, and reads the document from its own path.
    docs.addHook('onRequest', async (_request, reply) => void reply.headers(headers.document));
    await docs.register(fastifySwaggerUi, {
      routePrefix: API_DOCS_PREFIX,
      // No call to swagger's online validator: the page asks nothing of any other site.
      validatorUrl: false,
      theme: {
        title: 'Kinchart API reference',
        css: [{ filename: 'kinchart.css', content: THEME_CSS }],
        js: [{ filename: 'kinchart.js', content: THEME_JS }],
      },
      uiConfig: {
        // Without the top bar and its box for loading some other document.
        layout: 'BaseLayout',
        // The filter finds a group or a path among the operations (swagger-ui draws them only as
        // they scroll into view). No deep links: each would be a link inside the operation's
        // button (axe: nested-interactive, target-size). No syntax colours below 4.5:1 contrast.
        filter: true,
        deepLinking: false,
        syntaxHighlight: false,
        tryItOutEnabled: false,
        displayRequestDuration: true,
      },
    });
  });
}
