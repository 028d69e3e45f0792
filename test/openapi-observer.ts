import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from '../src/app.js';
import type { RecordedExample } from '../src/http/openapi/examples.js';

/**
 * Watches every exchange a test file makes with an application (test/harness.ts installs it on
 * both listeners) and, when the file ends, checks each error answered by a documented route
 * against the codes the served document lists for that operation and status: a route that
 * answers a code its document does not list fails the test file that saw it.
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
  const examples = new Map<string, { method: string; route: string } & RecordedExample>();
  const recording = process.env.SDAPI_RECORD_EXAMPLES;

  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    if (!route) return payload;
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const status = reply.statusCode;
    const code = request.errorCode ?? null;
    if (status >= 400) seen.set(`${method} ${route} ${status} ${code}`, { method, route, status, code });
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
      if (undocumented.length > 0) {
        throw new Error(
          `Routes answered codes their OpenAPI document does not list (add them to the operation's errors in src/http/openapi/*-operations.ts):\n${undocumented.join('\n')}`,
        );
      }
    },
  };
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
