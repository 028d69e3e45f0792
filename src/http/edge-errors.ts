import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { timeOrderedBase32 } from '../lib/ids.js';
import { envelopeOf, sendApiError } from './error-handler.js';
import { type ApiError, fail } from './errors.js';
import { NO_STORE, NOSNIFF } from './response-headers.js';
import { API_MAJOR_VERSION } from './versioning.js';

/** Request line plus headers, in bytes (Node's default, stated here so the docs can promise it). */
export const MAX_HEADER_BYTES = 16 * 1024;
/** The longest path parameter routed (a longer one is no route: 404); every id here is far shorter. */
export const MAX_PARAM_LENGTH = 200;

/**
 * `req_` and 20 base32 characters: the millisecond time, then 10 random ones (50 bits). The
 * request log's primary key is the id: ids in time order append to its index (docs/console.md).
 */
export const newRequestId = () => `req_${timeOrderedBase32(20)}`;

/** A complete HTTP/1.1 answer written straight to the socket (or response) with the envelope. */
function rawAnswer(apiError: ApiError, publicUrl: string) {
  const requestId = newRequestId();
  const body = JSON.stringify(envelopeOf(apiError, requestId, publicUrl));
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-api-version': API_MAJOR_VERSION,
    'x-request-id': requestId,
    ...NOSNIFF,
    'cache-control': NO_STORE,
    connection: 'close',
  };
  return { body, headers };
}

/** What Node's HTTP parser refused, before any request object exists. */
function clientErrorOf(err: NodeJS.ErrnoException): ApiError {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return fail('REQUEST_TIMEOUT', 'The request did not arrive in time.');
  if (err.code === 'HPE_HEADER_OVERFLOW')
    return fail('HEADERS_TOO_LARGE', `The request line and headers exceed ${MAX_HEADER_BYTES} bytes.`);
  return fail('BAD_REQUEST', 'The request is not valid HTTP/1.1.', {
    reason: 'malformed_http',
    parserError: err.code ?? 'unknown',
  });
}

/** Errors Fastify raises while routing, before hooks run. */
function frameworkErrorOf(err: FastifyError): ApiError {
  switch (err.code) {
    case 'FST_ERR_BAD_URL':
      return fail('VALIDATION_FAILED', 'params (path): is not valid percent-encoded UTF-8', {
        issues: [
          { in: 'params', field: '(path)', keyword: 'utf8', message: 'is not valid percent-encoded UTF-8' },
        ],
      });
    default:
      return fail('BAD_REQUEST', 'The request could not be routed.', { reason: err.code ?? 'bad_request' });
  }
}

/**
 * Fastify options that route every answer given before the app's error handler through the
 * envelope: the HTTP parser's refusals (400, 408, 431) and bad URLs.
 */
export function edgeServerOptions(publicUrl: string) {
  return {
    // Node answers a missing Host with a bare 400 of its own; installEdgeErrors refuses it instead.
    http: { maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // The 503 Fastify writes itself while closing is not enveloped: installEdgeErrors answers it.
    return503OnClosing: false,
    clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      if (socket.writable) {
        const apiError = clientErrorOf(err);
        const { body, headers } = rawAnswer(apiError, publicUrl);
        const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
        socket.write(
          `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\n${lines.join('')}\r\n${body}`,
        );
      }
      socket.destroy(err);
    },
    frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
      reply.headers({
        'x-api-version': API_MAJOR_VERSION,
        'x-request-id': request.id,
        'cache-control': NO_STORE,
        ...NOSNIFF,
      });
      return sendApiError(reply, request, frameworkErrorOf(err), publicUrl);
    },
  };
}

/** `Expect` values Node does not honour itself, a missing Host, and requests that arrive while the app closes. */
export function installEdgeErrors(app: FastifyInstance, publicUrl: string): void {
  app.server.on('checkExpectation', (_req, res) => {
    const apiError = fail('EXPECTATION_FAILED', 'Only Expect: 100-continue is supported.');
    const { body, headers } = rawAnswer(apiError, publicUrl);
    res.writeHead(apiError.status, headers).end(body);
  });

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback style: a hook that needs no await costs no promise on every request.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      return done(fail('BAD_REQUEST', 'HTTP/1.1 requires a Host header.', { reason: 'host_required' }));
    }
    if (!closing) return done();
    reply.header('connection', 'close');
    done(fail('SERVICE_UNAVAILABLE', 'This process is shutting down; send the request again.'));
  });
}
