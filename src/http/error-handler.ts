import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isTransientStoreError } from '../db/transient-errors.js';
import { withConsoleUrl } from './console-url.js';
import { type ApiError, ERROR_CODES, type ErrorCode, fail, isApiError, isTransient } from './errors.js';
import { MethodRouter } from './method-router.js';

interface ValidationIssue {
  field: string;
  in: string;
  message: string;
  keyword: string;
  params?: Record<string, unknown>;
}

interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

function fieldOf(issue: AjvIssue): string {
  const path = issue.instancePath
    .split('/')
    .slice(1)
    .map((part) =>
      /^\d+$/.test(part) ? `[${part}]` : `.${part.replaceAll('~1', '/').replaceAll('~0', '~')}`,
    )
    .join('')
    .replace(/^\./, '');
  const named =
    issue.keyword === 'required'
      ? String(issue.params.missingProperty ?? '')
      : issue.keyword === 'additionalProperties'
        ? String(issue.params.additionalProperty ?? '')
        : '';
  return [path, named].filter(Boolean).join('.') || '(root)';
}

/** Ajv's words, except where they hide what to fix: an unknown field is named by fieldOf. */
function messageOf(issue: AjvIssue): string {
  if (issue.keyword === 'additionalProperties') return 'is not a field of this request; remove it';
  return issue.message ?? 'is invalid';
}

/** The rule's figures a client needs to say what to fix in its own words (`limit` of maxLength...). */
const USEFUL_PARAMS = [
  'limit',
  'comparison',
  'allowedValues',
  'allowedValue',
  'type',
  'format',
  'multipleOf',
];

function paramsOf(issue: AjvIssue): Record<string, unknown> | null {
  const kept = Object.entries(issue.params ?? {}).filter(([name]) => USEFUL_PARAMS.includes(name));
  return kept.length > 0 ? Object.fromEntries(kept) : null;
}

export function validationIssues(raw: readonly unknown[], location: string): ValidationIssue[] {
  const issues = raw as readonly AjvIssue[];
  const where = location === 'querystring' ? 'query' : location;
  return issues.map((issue) => {
    const params = paramsOf(issue);
    return {
      field: fieldOf(issue),
      in: where,
      message: messageOf(issue),
      keyword: issue.keyword,
      ...(params ? { params } : {}),
    };
  });
}

/** Maps framework errors (parser, validation, limits) onto registry codes. */
function toApiError(err: FastifyError): ApiError | null {
  if (isApiError(err)) return err;
  if (err.validation) {
    const issues = validationIssues(err.validation as AjvIssue[], err.validationContext ?? 'body');
    const first = issues[0];
    return fail(
      'VALIDATION_FAILED',
      first ? `${first.in} ${first.field}: ${first.message}` : 'Invalid input.',
      {
        issues,
      },
    );
  }
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return fail('PAYLOAD_TOO_LARGE', 'The request body is larger than this service accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return fail('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return fail('BAD_REQUEST', 'The body is empty but Content-Type says JSON.', {
        reason: 'empty_json_body',
      });
  }
  if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return fail('BAD_REQUEST', 'The body is not valid JSON.', { reason: 'malformed_json' });
  }
  if (err.statusCode === 413) return fail('PAYLOAD_TOO_LARGE', 'The request body is too large.');
  if (err.statusCode === 415)
    return fail('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.');
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
    return fail('BAD_REQUEST', 'The request could not be read.', { reason: err.code ?? 'bad_request' });
  }
  return null;
}

/** The flat ApiError envelope; also written by the edge handlers that run before any request exists. */
export function envelopeOf(apiError: ApiError, requestId: string, publicUrl: string) {
  const info = ERROR_CODES[apiError.code];
  return {
    code: apiError.code,
    message: apiError.message,
    recoverable: info.recoverable,
    hint: apiError.hint ?? info.hint,
    doc_url: `${publicUrl}/docs#error-${apiError.code}`,
    requestId,
    details: withConsoleUrl(apiError.details, publicUrl),
  };
}

export const renderError = (apiError: ApiError, request: FastifyRequest, publicUrl: string) =>
  envelopeOf(apiError, request.id, publicUrl);

/** Seconds a client should wait before retrying a 503 that names no wait of its own. */
const UNAVAILABLE_RETRY_AFTER = '1';

/**
 * Writes the envelope as JSON text itself, so that no response schema can fail to serialize
 * it: an error whose details cannot be written as JSON (a cycle, a BigInt) is rendered as
 * INTERNAL_ERROR without them.
 */
function renderable(apiError: ApiError, request: FastifyRequest, publicUrl: string) {
  try {
    return { apiError, text: JSON.stringify(renderError(apiError, request, publicUrl)) };
  } catch {
    const internal = fail('INTERNAL_ERROR', 'The service failed; nothing was changed.');
    return { apiError: internal, text: JSON.stringify(renderError(internal, request, publicUrl)) };
  }
}

export function sendApiError(
  reply: FastifyReply,
  request: FastifyRequest,
  error: ApiError,
  publicUrl: string,
) {
  const { apiError, text } = renderable(error, request, publicUrl);
  request.transientFailure = isTransient(apiError);
  request.errorCode = apiError.code;
  for (const [name, value] of Object.entries(apiError.headers)) reply.header(name, value);
  if (apiError.status === 503 && !reply.hasHeader('retry-after'))
    reply.header('retry-after', UNAVAILABLE_RETRY_AFTER);
  return reply.code(apiError.status).type('application/json; charset=utf-8').send(text);
}

/** The error handler's answer to any thrown value: a registry code, 503 for a store fault, else 500. */
function apiErrorOf(err: FastifyError, request: FastifyRequest): ApiError {
  const apiError = toApiError(err);
  if (apiError) return apiError;
  if (isTransientStoreError(err)) {
    request.log.warn({ err }, 'store unavailable');
    return fail('STORE_UNAVAILABLE', 'The database was briefly unavailable; nothing was changed.');
  }
  request.log.error({ err }, 'unhandled error');
  return fail('INTERNAL_ERROR', 'The service failed; nothing was changed.');
}

/** One handler renders the flat ApiError envelope for every failure, 404 and 405 included. */
export function installErrorHandling(app: FastifyInstance, publicUrl: string): void {
  const routes = new MethodRouter();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.remember(method, route.url);
  });
  app.setErrorHandler((err: FastifyError, request, reply) => {
    let apiError: ApiError;
    try {
      apiError = apiErrorOf(err, request);
    } catch {
      apiError = fail('INTERNAL_ERROR', 'The service failed; nothing was changed.');
    }
    return sendApiError(reply, request, apiError, publicUrl);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = routes.allowedMethodsFor(path);
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      const error = fail('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}.`, { allowed });
      return sendApiError(reply, request, error, publicUrl);
    }
    const noRoute = fail('NOT_FOUND', `No route ${request.method} ${path}.`, { reason: 'no_route' }).withHint(
      `Check the method and path against the API reference at ${publicUrl}/docs.`,
    );
    return sendApiError(reply, request, noRoute, publicUrl);
  });
}

export type { ErrorCode };
