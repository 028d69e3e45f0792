import type { FastifyInstance, InjectOptions } from 'fastify';
import { ERROR_CODES } from '../../src/http/errors.js';
import { rawRequest } from '../raw-http.js';
import {
  brokenBody,
  brokenUrl,
  type Operation,
  oddHeaders,
  operationsOf,
  pick,
  type Rng,
  seededRng,
} from './generate.js';

export interface FuzzReport {
  requests: number;
  statuses: Record<number, number>;
  serverErrors: number;
  envelopeViolations: number;
  /** The first few failures, each enough to replay by hand. */
  examples: string[];
}

const ENVELOPE_KEYS = ['code', 'details', 'doc_url', 'hint', 'message', 'recoverable', 'requestId'].join();
/** Codes with two statuses (src/http/errors.ts). */
const MULTI_STATUS = new Set(['PRODUCT_NOT_SELLABLE']);

/** What is wrong with an answer, or null: no 5xx, and every 4xx in the flat ApiError envelope. */
export function answerFault(status: number, contentType: string | undefined, body: string): string | null {
  if (status < 400) return null;
  if (!contentType?.startsWith('application/json')) return `content-type ${contentType}`;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(body);
  } catch {
    return 'body is not JSON';
  }
  if (Object.keys(json).sort().join() !== ENVELOPE_KEYS) return `keys ${Object.keys(json).join()}`;
  const info = ERROR_CODES[json.code as keyof typeof ERROR_CODES];
  if (!info) return `unknown code ${String(json.code)}`;
  if (info.status !== status && !MULTI_STATUS.has(json.code as string))
    return `${json.code} with status ${status}`;
  // The hint is the registry's unless the failure carries one fitting its situation (withHint).
  if (json.recoverable !== info.recoverable || typeof json.hint !== 'string' || json.hint === '')
    return 'recoverable not from the registry, or no hint';
  if (typeof json.requestId !== 'string' || !json.requestId.startsWith('req_')) return 'no requestId';
  return null;
}

function newReport(): FuzzReport {
  return { requests: 0, statuses: {}, serverErrors: 0, envelopeViolations: 0, examples: [] };
}

function record(report: FuzzReport, status: number, fault: string | null, replay: () => string) {
  report.requests += 1;
  report.statuses[status] = (report.statuses[status] ?? 0) + 1;
  if (status >= 500) report.serverErrors += 1;
  if (fault) report.envelopeViolations += 1;
  if ((status >= 500 || fault) && report.examples.length < 10)
    report.examples.push(`${status} ${fault ?? ''} ${replay()}`);
}

export interface FuzzOptions {
  seed: number;
  requests: number;
  /** Valid credential headers (a sandbox and a production key, say); the generator breaks some. */
  auth: readonly Record<string, string>[];
  /** The peer address production keys are allowed from. */
  remoteAddress: string;
  concurrency?: number;
  /** Called every `every` requests (the bench samples memory there). */
  checkpoint?: { every: number; run: (done: number) => Promise<void> | void };
}

/** Generated bad requests for every operation of the served OpenAPI document, through `inject`. */
export async function fuzzOperations(
  app: FastifyInstance,
  documentUrl: string,
  options: FuzzOptions,
): Promise<FuzzReport> {
  const document = await app.inject({ url: documentUrl });
  const operations = operationsOf(document.json());
  if (operations.length === 0) throw new Error(`no operations in ${documentUrl}`);
  const rng = seededRng(options.seed);
  const report = newReport();
  let issued = 0;
  const nextRequest = (op: Operation, r: Rng) => {
    const body = ['GET', 'HEAD'].includes(op.method) ? {} : brokenBody(op.body, r);
    const headers = oddHeaders(r, options.auth);
    if (body.payload !== undefined) headers['content-type'] = body.contentType ?? 'application/json';
    return { method: op.method, url: brokenUrl(op, r), headers, payload: body.payload };
  };
  const worker = async () => {
    while (issued < options.requests) {
      issued += 1;
      const request = nextRequest(pick(rng, operations), rng);
      const res = await app.inject({
        ...request,
        method: request.method as InjectOptions['method'],
        remoteAddress: options.remoteAddress,
      });
      const fault = answerFault(res.statusCode, res.headers['content-type']?.toString(), res.body);
      record(report, res.statusCode, fault, () =>
        JSON.stringify({ ...request, payload: String(request.payload ?? '').slice(0, 300) }).slice(0, 600),
      );
      if (options.checkpoint && report.requests % options.checkpoint.every === 0)
        await options.checkpoint.run(report.requests);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  return report;
}

const REQUEST_LINES = [
  'GET /api/seller/v1/health HTTP/1.1',
  'GET /api/seller/v1/whoami HTTP/1.1',
  'POST /api/seller/v1/keys HTTP/1.1',
  'GET /api/seller/v1/keys/%ff/rotate HTTP/1.1',
  'GET /api/seller/v1/orders/%00 HTTP/1.1',
  'G\u0000T / HTTP/1.1',
  'GET / HTTP/9.9',
  'GET  HTTP/1.1',
  'GET http://evil.example/api/seller/v1/health HTTP/1.1',
  'FOO\tBAR',
  '\u00ff\u00fe\u00fd',
];

const HEADER_LINES = [
  'Host: x',
  'Content-Length: 2\r\nTransfer-Encoding: chunked',
  'Transfer-Encoding: chunked',
  'Content-Length: -1',
  'Content-Length: abc',
  'Content-Length: 0\r\nContent-Length: 5',
  'Expect: garbage',
  'Expect: 100-continue',
  'X-A: a\u0000b',
  'No colon here',
  ' leading: space',
  `X-Big: ${'a'.repeat(20_000)}`,
  'Authorization: Bearer \u00ff\u00fe',
  'X-Service-Api-Version: \u00e9',
  'Content-Type: application/json',
];

const BODIES = ['', '0\r\n\r\n', 'zz\r\n{}\r\n0\r\n\r\n', '{}', '{"name":"\u00ff"}'];

/** Malformed HTTP over a raw socket against a listening server: every answer in the envelope. */
export async function fuzzRawHttp(port: number, seed: number, requests: number): Promise<FuzzReport> {
  const rng = seededRng(seed);
  const report = newReport();
  for (let i = 0; i < requests; i++) {
    const headers = Array.from({ length: 1 + Math.floor(rng() * 3) }, () => pick(rng, HEADER_LINES));
    const text = `${pick(rng, REQUEST_LINES)}\r\n${headers.join('\r\n')}\r\nConnection: close\r\n\r\n${pick(rng, BODIES)}`;
    const answer = await rawRequest(port, Buffer.from(text, 'latin1'), 200);
    // No answer is allowed only when the request never ended (the server still waits for it).
    const status = answer?.status ?? 0;
    const fault = answer ? answerFault(status, answer.headers['content-type'], answer.body) : null;
    record(report, status, fault, () => JSON.stringify(text.slice(0, 300)));
  }
  return report;
}
