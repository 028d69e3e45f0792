import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeSeller } from '../../test/factories.js';
import { useTestApp } from '../../test/harness.js';
import { type RawAnswer, rawRequest } from '../../test/raw-http.js';
import { call, expectApiError } from '../../test/route-contract.js';
import { MAX_HEADER_BYTES } from './edge-errors.js';
import { ERROR_CODES } from './errors.js';

const t = useTestApp({}, (app) => {
  app.get('/api/seller/v1/test-crash', { config: { auth: 'none' } }, async () => {
    throw new Error('the request itself breaks the code');
  });
  app.get('/api/seller/v1/test-store-busy', { config: { auth: 'none' } }, async () => {
    throw Object.assign(new Error('could not serialize access'), { code: '40001' });
  });
});

let port = 0;
beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});

const whoami = '/api/seller/v1/whoami';
const get = (path: string, headers = '') =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Connection: close\r\n\r\n`;

function expectEnvelope(answer: RawAnswer | null, status: number, code: string) {
  expect(answer, 'the server answered').not.toBeNull();
  expect(answer!.status, answer!.body).toBe(status);
  expect(answer!.headers['content-type']).toMatch(/^application\/json/);
  expect(answer!.headers['x-content-type-options']).toBe('nosniff');
  expect(answer!.json).toMatchObject({
    code,
    message: expect.any(String),
    recoverable: ERROR_CODES[code as keyof typeof ERROR_CODES].recoverable,
    hint: expect.any(String),
    doc_url: expect.stringContaining(code),
    requestId: expect.stringMatching(/^req_/),
    details: expect.any(Object),
  });
  return answer!.json as { details: Record<string, unknown> };
}

describe('answers given before routing carry the ApiError envelope (finding 4)', () => {
  it('431 HEADERS_TOO_LARGE for a header past the limit', async () => {
    const answer = await rawRequest(port, get(whoami, `X-Big: ${'a'.repeat(MAX_HEADER_BYTES)}\r\n`));
    expectEnvelope(answer, 431, 'HEADERS_TOO_LARGE');
  });

  it('431 HEADERS_TOO_LARGE for a query past the limit', async () => {
    const answer = await rawRequest(port, get(`/api/seller/v1/products?q=${'a'.repeat(MAX_HEADER_BYTES)}`));
    expectEnvelope(answer, 431, 'HEADERS_TOO_LARGE');
  });

  it('422 VALIDATION_FAILED for a path whose percent-encoding is not UTF-8 (was FST_ERR_BAD_URL)', async () => {
    const answer = await rawRequest(port, get('/api/seller/v1/keys/%ff/rotate'));
    const body = expectEnvelope(answer, 422, 'VALIDATION_FAILED');
    expect(body.details.issues).toEqual([expect.objectContaining({ in: 'params', keyword: 'utf8' })]);
    expect(answer!.headers['x-request-id']).toBe((answer!.json as { requestId: string }).requestId);
  });

  it('404 NOT_FOUND for a path segment longer than any id', async () => {
    const answer = await rawRequest(port, get(`/api/seller/v1/orders/${'a'.repeat(300)}`));
    expectEnvelope(answer, 404, 'NOT_FOUND');
  });

  it.each([
    [
      'Content-Length with Transfer-Encoding',
      'POST /api/seller/v1/keys HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    [
      'a bad chunk size',
      'POST /api/seller/v1/keys HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    ],
    ['NUL in a header', 'GET /api/seller/v1/health HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n'],
    ['a garbage request line', 'HELLO THERE\r\n\r\n'],
  ])('400 BAD_REQUEST malformed_http for %s', async (_label, bytes) => {
    const body = expectEnvelope(await rawRequest(port, Buffer.from(bytes, 'latin1')), 400, 'BAD_REQUEST');
    expect(body.details.reason).toBe('malformed_http');
  });

  it('400 BAD_REQUEST host_required for HTTP/1.1 without Host (was an empty 400 from Node)', async () => {
    const answer = await rawRequest(port, 'GET /api/seller/v1/health HTTP/1.1\r\nConnection: close\r\n\r\n');
    const body = expectEnvelope(answer, 400, 'BAD_REQUEST');
    expect(body.details.reason).toBe('host_required');
  });

  it('417 EXPECTATION_FAILED for an Expect other than 100-continue (was an empty body)', async () => {
    const answer = await rawRequest(port, get(whoami, 'Expect: garbage\r\n'));
    expectEnvelope(answer, 417, 'EXPECTATION_FAILED');
  });

  it('still honours Expect: 100-continue', async () => {
    const seller = await makeSeller(t);
    const answer = await rawRequest(
      port,
      get(whoami, `Authorization: Bearer ${seller.token}\r\nExpect: 100-continue\r\n`),
    );
    expect(answer?.status).toBe(200);
  });
});

describe('recoverable tells the truth on 500 (finding 6)', () => {
  it('an error the request itself causes is not recoverable by retrying it', async () => {
    const result = await call(t, { method: 'GET', url: '/api/seller/v1/test-crash' });
    expectApiError(result, 500, 'INTERNAL_ERROR');
    expect(result.body.recoverable).toBe(false);
    expect(result.body.hint).not.toMatch(/retry with the same/i);
    expect(JSON.stringify(result.body)).not.toContain('breaks the code');
  });

  it('a transient store failure answers 503 STORE_UNAVAILABLE, recoverable', async () => {
    const result = await call(t, { method: 'GET', url: '/api/seller/v1/test-store-busy' });
    expectApiError(result, 503, 'STORE_UNAVAILABLE');
    expect(result.body.recoverable).toBe(true);
  });
});
