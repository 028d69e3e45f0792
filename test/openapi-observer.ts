import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { App } from '../src/app.js';
import type { RecordedExample } from '../src/http/openapi/examples.js';
import { type Exchange, type OpenApiDoc, ResponseChecker } from './openapi-response-check.js';

/**
 * Watches every exchange a test file makes with an application (test/harness.ts installs it on
 * both listeners) and, when the file ends, fails the test file if a documented route answered
 * anything its served document does not say: a status it does not list, a content type it does
 * not declare, a JSON body that does not match the schema with every object closed
 * (openapi-response-check.ts), a declared required header missing, an API header it does not
 * declare on that response, or an error code it does not list under that status.
 *
 * With SDAPI_RECORD_EXAMPLES=<dir>, it also writes the first success of each operation (request
 * body and response body) to <dir>; scripts/record-openapi-examples.mjs merges them into
 * src/http/openapi/examples/*.json, which the documents show as examples (docs/openapi.md).
 */
interface Seen {
  method: string;
  route: string;
  status: number;
  code: string | null;
}

interface Operation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { schema?: { allOf?: unknown[] } }> }>;
}

const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function documentedCodes(operation: Operation, status: number): string[] {
  const schema = operation.responses?.[String(status)]?.content?.['application/json']?.schema;
  const part = schema?.allOf?.[1] as { properties?: { code?: { enum?: string[] } } } | undefined;
  return part?.properties?.code?.enum ?? [];
}

export function observeOpenApi(app: App, documentUrl: string, kind: 'seller' | 'admin') {
  const seen = new Map<string, Seen>();
  const mismatches = new Set<string>();
  let checker: ResponseChecker | null = null;
  const check = (method: string, route: string, exchange: Exchange) => {
    const operation = checker?.operation(method, openApiPath(route));
    if (!checker || !operation?.operationId) return; // hidden routes and test probes
    for (const problem of checker.check(operation, exchange)) {
      mismatches.add(`${operation.operationId} (${method} ${route}): ${problem}`);
    }
  };
  const examples = new Map<string, { method: string; route: string } & RecordedExample>();
  const recording = process.env.SDAPI_RECORD_EXAMPLES;

  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    if (!route) return payload;
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const status = reply.statusCode;
    const code = request.errorCode ?? null;
    if (status >= 400) seen.set(`${method} ${route} ${status} ${code}`, { method, route, status, code });
    const exchangeOf = (text: string | null, hasBody: boolean): Exchange => ({
      status,
      headers: headersOf(reply),
      text: request.method === 'HEAD' ? null : text,
      // 204 and 304 go out without a body whatever the payload (Fastify drops it).
      hasBody: hasBody && status !== 204 && status !== 304,
      head: request.method === 'HEAD',
      sentBody: saysSomething(request.body),
    });
    if (isStream(payload)) {
      const held: Buffer[] | null = isJsonText(reply) ? [] : null;
      return payload.pipe(
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            held?.push(Buffer.from(chunk));
            done(null, chunk);
          },
          flush(done) {
            check(method, route, exchangeOf(held ? Buffer.concat(held).toString('utf8') : null, true));
            done();
          },
        }),
      );
    }
    const text = typeof payload === 'string' ? payload : null;
    const empty =
      payload === undefined ||
      payload === null ||
      payload === '' ||
      (Buffer.isBuffer(payload) && payload.length === 0);
    check(
      method,
      route,
      exchangeOf(Buffer.isBuffer(payload) && isJsonText(reply) ? payload.toString('utf8') : text, !empty),
    );
    const key = `${method} ${route}`;
    if (recording && status < 300 && typeof payload === 'string' && !examples.has(key)) {
      const type = String(reply.getHeader('content-type') ?? '');
      if (type.startsWith('application/json') && payload.length > 0) {
        const body = request.body === undefined || request.body === null ? {} : { request: request.body };
        examples.set(key, { method, route, status, ...body, body: JSON.parse(payload) });
      }
    }
    return payload;
  });

  let doc: { paths: Record<string, Record<string, Operation>> } = { paths: {} };
  return {
    /** Reads the served document once the application is ready (before any test can break the store). */
    async ready(): Promise<void> {
      doc = (await app.inject({ method: 'GET', url: documentUrl })).json();
      checker = new ResponseChecker(doc as OpenApiDoc);
    },
    async finish(): Promise<void> {
      const operationOf = (method: string, route: string) =>
        doc.paths[openApiPath(route)]?.[method.toLowerCase()];
      if (recording) saveExamples(recording, kind, examples, operationOf);
      const undocumented: string[] = [];
      for (const { method, route, status, code } of seen.values()) {
        const operation = operationOf(method, route);
        if (!operation?.operationId) continue; // hidden routes and test probes
        if (!code || !documentedCodes(operation, status).includes(code)) {
          undocumented.push(`${operation.operationId} (${method} ${route}) answered ${status} ${code}`);
        }
      }
      const failures: string[] = [];
      if (undocumented.length > 0) {
        failures.push(
          `Routes answered codes their OpenAPI document does not list (add them to the operation's errors in src/http/openapi/*-operations.ts):\n${undocumented.join('\n')}`,
        );
      }
      if (mismatches.size > 0) {
        failures.push(
          `Replies disagree with the ${kind} OpenAPI document (fix the route or the document, docs/openapi.md):\n${[...mismatches].join('\n')}`,
        );
      }
      if (failures.length > 0) throw new Error(failures.join('\n'));
    },
  };
}

/** A request body with content: an empty object or empty text says nothing (closed-inputs.ts). */
const saysSomething = (body: unknown) =>
  body !== undefined &&
  body !== null &&
  body !== '' &&
  !(typeof body === 'object' && !isStream(body) && !Array.isArray(body) && Object.keys(body).length === 0);

const isStream = (payload: unknown): payload is Readable =>
  typeof (payload as { pipe?: unknown } | null)?.pipe === 'function';

const isJsonText = (reply: FastifyReply) =>
  /^application\/([a-z.+-]*\+)?json\b/i.test(String(reply.getHeader('content-type') ?? '')) &&
  reply.getHeader('content-encoding') === undefined;

function headersOf(reply: FastifyReply): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name.toLowerCase()] = String(value);
  }
  return headers;
}

function saveExamples(
  dir: string,
  kind: string,
  examples: Map<string, { method: string; route: string } & RecordedExample>,
  operationOf: (method: string, route: string) => Operation | undefined,
): void {
  const byOperation: Record<string, RecordedExample> = {};
  for (const { method, route, ...example } of examples.values()) {
    const id = operationOf(method, route)?.operationId;
    if (id) byOperation[id] = example;
  }
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${kind}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(byOperation));
}
