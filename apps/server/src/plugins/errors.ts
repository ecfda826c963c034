import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { HttpError } from '../lib/http-errors';

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
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // An answer given before the request body has arrived whole (an upload over MAX_UPLOAD_MB,
    // DESIGN §6) closes the connection (RFC 9112 §9.6). Kept alive, the unread rest of the body
    // stalls the connection, and a browser, which reads the answer only once it has sent the
    // body or the connection ends, would wait forever.
    if (!request.raw.complete) void reply.header('Connection', 'close');
    if (error instanceof HttpError) {
      void reply
        .headers(error.headers)
        .code(error.statusCode)
        .send({ message: error.message, ...error.extra });
      return;
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      void reply.code(400).send({ message: describeValidation(error.validation, error.validationContext) });
      return;
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: { message: error.message, method: error.method, url: error.url } }, 'response did not match its schema');
      void reply.code(500).send({ message: 'Something went wrong. Please try again.' });
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
      void reply.code(status).send({ message });
      return;
    }
    // 5xx: log with the request id, answer a generic message — no internals leave the server.
    request.log.error({ err: error }, 'request failed');
    void reply.code(500).send({ message: 'Something went wrong. Please try again.' });
  });
}
