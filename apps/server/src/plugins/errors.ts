import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageCode } from '@kinchart/shared/messages';
import { HttpError } from '../lib/http-errors';

/*
 * Issue 35 (docs/decisions/0054): every JSON answer that carries a `message` also carries its
 * stable `code` (and `params` when the text has placeholders), from the registry of
 * packages/shared/src/messages.ts — the web shows the code's text in the reader's language while
 * `message` stays the SPEC's English. Set here in one place: the error handler codes errors, a
 * preSerialization hook codes the bodies routes answer, and an onRoute hook adds both fields to
 * every response schema that has a `message` (so the serializer keeps them and the OpenAPI
 * document shows them).
 */

/** A message without a code: in tests the answer fails (a new text cannot land without one); elsewhere it is sent as 'unknown'. */
export class UncodedMessageError extends Error {}

// The test runner sets NODE_ENV=test; a deployment never does.
const STRICT = process.env.NODE_ENV === 'test';

/** The fields added to an answer with `message`. */
const codeFields = {
  code: z
    .string()
    .meta({ description: 'The stable code of `message` (docs/decisions/0054): the client shows its text in the reader’s language.' }),
  params: z
    .record(z.string(), z.string())
    .optional()
    .meta({ description: 'The values of the placeholders of the code’s text, when it has any.' }),
};

/** `{ code, params }` of a message; `fallback` names a framework's own text (never an unknown one of ours). */
export function codeOf(message: string, fallback?: 'request_error'): { code: string; params?: Record<string, string> } {
  const coded = messageCode(message);
  if (coded) return coded;
  if (fallback) return { code: fallback, params: { detail: message } };
  if (STRICT) throw new UncodedMessageError(`No code for the server message ${JSON.stringify(message)} (packages/shared/src/messages.ts)`);
  return { code: 'unknown', params: { detail: message } };
}

/** The body with `code`/`params` beside its `message` (unchanged when it has no message or already a code). */
export function withCode<T>(body: T): T {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  if (typeof record.message !== 'string' || typeof record.code === 'string') return body;
  return { ...record, ...codeOf(record.message) } as T;
}

function isMessageObject(schema: unknown): schema is z.ZodObject {
  return schema instanceof z.ZodObject && 'message' in schema.shape;
}

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string } };
}

/** "name: must be at most 200 characters" — a message that names the field (DESIGN §5). */
export function describeValidation(issues: readonly ValidationIssue[], context?: string): string {
  const first = issues[0];
  if (!first) return 'Invalid request';
  const path = (first.params?.issue?.path ?? first.instancePath?.split('/').filter(Boolean) ?? []).map(String);
  const message = first.params?.issue?.message ?? first.message ?? 'is invalid';
  const field = path.join('.');
  if (message.startsWith('Invalid input: expected')) {
    const expected = message.replace('Invalid input: expected ', '').replace(/, received .*$/, '');
    return field
      ? `${field} must be ${expected}`
      : `Request ${context ?? 'body'} must be ${expected === 'object' ? 'a JSON object' : expected}`;
  }
  // Messages written for people already name their field ("Username is required").
  if (!field || /^[A-Z]/.test(message)) return message;
  return `${field}: ${message}` + (context && context !== 'body' ? ` (${context})` : '');
}

export function registerErrorHandling(app: FastifyInstance): void {
  // Registered before @fastify/swagger's own onRoute hook, which keeps these route options.
  app.addHook('onRoute', (route) => {
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (!route.schema || !response) return;
    const coded = Object.fromEntries(
      Object.entries(response).map(([status, schema]) => [status, isMessageObject(schema) ? schema.extend(codeFields) : schema]),
    );
    route.schema = { ...route.schema, response: coded };
  });
  app.addHook('preSerialization', async (_request, _reply, payload) => withCode(payload));

  app.setErrorHandler((error: FastifyError, request, reply) => {
    // An answer given before the request body has arrived whole (an upload over MAX_UPLOAD_MB,
    // DESIGN §6) closes the connection (RFC 9112 §9.6). Kept alive, the unread rest of the body
    // stalls the connection, and a browser, which reads the answer only once it has sent the
    // body or the connection ends, would wait forever.
    if (!request.raw.complete) void reply.header('Connection', 'close');
    if (error instanceof HttpError && !(STRICT && !messageCode(error.message))) {
      void reply
        .headers(error.headers)
        .code(error.statusCode)
        .send({ message: error.message, ...codeOf(error.message), ...error.extra });
      return;
    }
    if (error instanceof HttpError || error instanceof UncodedMessageError) {
      // Only in tests: a message without a code fails the answer, loudly (see STRICT).
      request.log.error({ err: { message: error.message } }, 'answer without a message code');
      void reply.code(500).send(withCode({ message: 'Something went wrong. Please try again.' }));
      return;
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const message = describeValidation(error.validation, error.validationContext);
      // A zod default text (not one of ours) still reaches the client, coded as the framework's own.
      void reply.code(400).send({ message, ...codeOf(message, 'request_error') });
      return;
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: { message: error.message, method: error.method, url: error.url } }, 'response did not match its schema');
      void reply.code(500).send(withCode({ message: 'Something went wrong. Please try again.' }));
      return;
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Unsupported content type: send application/json'
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'Request body is too large'
            : status === 400 && error instanceof SyntaxError
              ? 'Malformed JSON in request body'
              : status === 429
                ? 'Too many requests. Please slow down and try again shortly.'
                : error.message;
      void reply.code(status).send({ message, ...codeOf(message, 'request_error') });
      return;
    }
    // 5xx: log with the request id, answer a generic message — no internals leave the server.
    request.log.error({ err: error }, 'request failed');
    void reply.code(500).send(withCode({ message: 'Something went wrong. Please try again.' }));
  });
}
