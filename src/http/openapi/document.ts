import type { SwaggerOptions } from '@fastify/swagger';
import { ERROR_CODES } from '../errors.js';
import { SIMULATE_VALUES } from '../simulate.js';
import { SUPPORTED_CONTRACT_DATES } from '../versioning.js';
import { ADMIN_OPERATIONS } from './admin-operations.js';
import { byStatus, errorCodesOf, type RouteFacts } from './error-codes.js';
import { type Examples, examplesOf } from './examples.js';
import { describe } from './glossary.js';
import { HEADER_COMPONENTS, headersOf } from './headers.js';
import { type OperationTable, operationKey } from './operation-docs.js';
import { SELLER_OPERATIONS } from './seller-operations.js';
import { type Doc, describeFields, type Operation, type Parameter, TAGS } from './shapes.js';

export type DocumentKind = 'seller' | 'admin';

const TABLES: Record<DocumentKind, OperationTable> = { seller: SELLER_OPERATIONS, admin: ADMIN_OPERATIONS };
const PREFIXES: Record<DocumentKind, string> = { seller: '/api/seller/v1', admin: '/admin/v1' };
const SCHEME: Record<DocumentKind, string> = { seller: 'bearer', admin: 'operatorToken' };

/** Shared schemas keep their `$id` as their component name (`#/components/schemas/ApiError`). */
const refResolver = {
  buildLocalReference: (json: { $id?: unknown }, _base: unknown, _fragment: unknown, i: number) =>
    typeof json.$id === 'string' ? json.$id : `def-${i}`,
};

const INFO: Record<DocumentKind, { title: string; description: string }> = {
  seller: {
    title: 'Seller Distribution API',
    description:
      'The seller-facing HTTP/JSON API: catalog, allocations, orders and keys, webhooks, API keys, finance. Every failure answers the flat ApiError envelope; `doc_url` points at the code on /docs.',
  },
  admin: {
    title: 'Seller Distribution API: operator',
    description:
      'The operator API (the publisher-console side) on its own listener: companies, agreements, catalog, supply, finance, after-sale and webhooks, authenticated with SDAPI_ADMIN_TOKEN.',
  },
};

const SERVER_TEXT: Record<DocumentKind, string> = {
  seller: 'The seller listener (PUBLIC_URL).',
  admin: 'The operator listener (ADMIN_HOST:ADMIN_PORT), never the seller one.',
};

/** Where a generated operator client sends requests: the operator listener, not PUBLIC_URL. */
export function operatorUrlOf(config: { adminHost: string; adminPort: number }): string {
  const host = config.adminHost.includes(':') ? `[${config.adminHost}]` : config.adminHost;
  return `http://${host}:${config.adminPort}`;
}

/** `/orders/:id` → `/orders/{id}`, as the document spells paths. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * The @fastify/swagger options of one document. Each route's config and schemas are noted as
 * the plugin walks the routes (`transform`); the finished document then gets, per operation,
 * what the operation table, the error registry, the glossary and the recorded examples say.
 */
export function openApiOptions(kind: DocumentKind, publicUrl: string, serverUrl = publicUrl): SwaggerOptions {
  const facts = new Map<string, RouteFacts>();
  return {
    refResolver,
    openapi: {
      openapi: '3.1.0',
      info: {
        ...INFO[kind],
        version: '1',
        license: { name: 'Proprietary: for integrators of this service', url: `${publicUrl}/docs` },
      },
      servers: [{ url: serverUrl, description: SERVER_TEXT[kind] }],
      tags: TAGS[kind],
      components: {
        headers: HEADER_COMPONENTS,
        securitySchemes:
          kind === 'seller'
            ? {
                bearer: {
                  type: 'http',
                  scheme: 'bearer',
                  description:
                    'A Seller API key: `service_sk_sbx_…` (sandbox) or `service_sk_live_…` (production). The scopes listed per operation are alternatives: any one admits the key.',
                },
              }
            : {
                operatorToken: {
                  type: 'http',
                  scheme: 'bearer',
                  description: 'The operator token (SDAPI_ADMIN_TOKEN).',
                },
              },
      },
    },
    transform: ({ schema, url, route }) => {
      const s = (schema ?? {}) as Record<string, unknown>;
      for (const method of [route.method].flat()) {
        facts.set(operationKey(method, openApiPath(url)), {
          method,
          config: route.config ?? {},
          hasBody: s.body !== undefined,
          hasQueryOrParams: s.querystring !== undefined || s.params !== undefined,
        });
      }
      return { schema, url };
    },
    transformObject: (documentObject) => {
      const doc = (documentObject as { openapiObject: unknown }).openapiObject as Doc;
      return finishDocument(doc, kind, facts, examplesOf(kind)) as never;
    },
  };
}

function finishDocument(doc: Doc, kind: DocumentKind, facts: Map<string, RouteFacts>, examples: Examples) {
  const prefix = PREFIXES[kind];
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const key = operationKey(method, path.slice(prefix.length) || '/');
      const entry = TABLES[kind][key];
      const routeFacts = facts.get(operationKey(method, path));
      if (!entry || !routeFacts) continue; // openapi.test.ts names every undocumented route
      const routeSummary = operation.summary;
      operation.operationId = entry.operationId;
      operation.summary = entry.summary;
      operation.description = entry.description ?? routeSummary ?? entry.summary;
      operation.security = securityOf(kind, routeFacts);
      operation.parameters = parametersOf(kind, operation, routeFacts);
      const streamed = routeFacts.config.streamedBody;
      if (streamed) operation.requestBody = streamedBodyOf(streamed);
      const body = operation.requestBody?.content?.['application/json'];
      if (body?.schema) describeFields(body.schema);
      // A body that may be null may also be left out (`POST /webhooks/{id}/test` with no type).
      if (operation.requestBody && body?.schema && acceptsNull(body.schema))
        operation.requestBody.required = false;
      finishResponses(operation, errorCodesOf(routeFacts, entry), routeFacts);
      const example = examples[entry.operationId];
      if (example?.request !== undefined && body) body.example = example.request;
      const answered = example && operation.responses[String(example.status)]?.content?.['application/json'];
      if (answered) answered.example = example.body;
    }
  }
  describeApiError(doc);
  keepUsedHeaders(doc);
  return doc;
}

/** The operator document has no rate-limited or idempotent route: it lists only the headers it uses. */
function keepUsedHeaders(doc: Doc): void {
  const headers = doc.components?.headers;
  if (!headers) return;
  const paths = JSON.stringify(doc.paths ?? {});
  const used = Object.entries(headers).filter(([name]) => paths.includes(`"#/components/headers/${name}"`));
  doc.components = { ...doc.components, headers: Object.fromEntries(used) };
}

function securityOf(kind: DocumentKind, facts: RouteFacts): Record<string, string[]>[] {
  if (facts.config.auth === 'none' || facts.config.auth === undefined) return [];
  const scopes = facts.config.scopes ?? [];
  const scheme = SCHEME[kind];
  return scopes.length === 0 ? [{ [scheme]: [] }] : scopes.map((scope) => ({ [scheme]: [scope] }));
}

const header = (
  name: string,
  required: boolean,
  description: string,
  schema: Record<string, unknown>,
): Parameter => ({
  name,
  in: 'header',
  required,
  description,
  schema,
});

/** A body the route reads as a stream: text of the media types it names. */
const acceptsNull = (schema: object): boolean =>
  ((schema as { anyOf?: { type?: unknown }[] }).anyOf ?? []).some((member) => member.type === 'null');

function streamedBodyOf(streamed: Readonly<Record<string, string>>): NonNullable<Operation['requestBody']> {
  const content = Object.fromEntries(
    Object.entries(streamed).map(([type, description]) => [
      type,
      { schema: { type: 'string', description } },
    ]),
  );
  return { required: true, content };
}

function parametersOf(kind: DocumentKind, operation: Operation, facts: RouteFacts): Parameter[] {
  const parameters: Parameter[] = (operation.parameters ?? []).map((p) => {
    const { description: fromSchema, ...schema } = p.schema ?? {};
    const description = p.description ?? (fromSchema as string | undefined) ?? describe(p.name, p.in);
    const required = p.in === 'path' ? true : p.required === true && schema.default === undefined;
    return { ...p, schema, required, ...(description ? { description } : {}) };
  });
  const mode = facts.config.idempotency;
  if (mode) {
    parameters.push(
      header(
        'Idempotency-Key',
        mode === 'required',
        `1-255 printable ASCII characters, unique per request${mode === 'required' ? ' (required here)' : ''}. A repeat within 24 hours replays the stored reply with Idempotency-Replayed: true; the same key with another body answers IDEMPOTENCY_KEY_MISMATCH.`,
        { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
      ),
    );
  }
  if (operation.responses?.['304']) {
    parameters.push(
      header('If-None-Match', false, 'The ETag of a copy you hold: 304 without a body while it is current.', {
        type: 'string',
      }),
    );
  }
  if (kind === 'seller' && facts.config.auth === 'seller') {
    parameters.push(
      header('X-Service-Api-Version', false, 'Pins the contract date; the reply echoes the one applied.', {
        type: 'string',
        enum: [...SUPPORTED_CONTRACT_DATES],
      }),
      header(
        'X-Service-Sandbox-Simulate',
        false,
        'Sandbox keys only: answers as the named failure would, changing nothing (see /docs#section/Sandbox).',
        { type: 'string', enum: [...SIMULATE_VALUES] },
      ),
    );
  }
  return parameters;
}

const SUCCESS_TEXT: Record<string, string> = {
  '200': 'The result.',
  '201': 'Created.',
  '202': 'Accepted: the work continues in the background.',
  '204': 'Done; no body.',
  '304': 'Not modified since the ETag sent in If-None-Match.',
};

function finishResponses(
  operation: Operation,
  codes: ReturnType<typeof errorCodesOf>,
  facts: RouteFacts,
): void {
  const responses: Operation['responses'] = {};
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (Number(status) >= 400) continue;
    const description = response.description === 'Default Response' ? SUCCESS_TEXT[status] : undefined;
    responses[status] = {
      ...response,
      description: description ?? response.description ?? 'The result.',
      headers: { ...response.headers, ...headersOf(facts, { retry: false }) },
    };
  }
  for (const [status, list] of byStatus(codes)) {
    const retry = status === 429 || status === 503 || list.includes('IDEMPOTENCY_REQUEST_IN_PROGRESS');
    responses[String(status)] = {
      description: `ApiError with code ${list.join(', ')}.`,
      headers: headersOf(facts, { retry }),
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/ApiError' },
              { type: 'object', properties: { code: { type: 'string', enum: list } } },
            ],
          },
        },
      },
    };
  }
  operation.responses = responses;
}

function describeApiError(doc: Doc): void {
  const apiError = doc.components?.schemas?.ApiError as {
    properties?: Record<string, Record<string, unknown>>;
  };
  const fields = apiError?.properties;
  if (!fields) return;
  const texts: Record<string, string> = {
    code: 'The error code (registry on /docs#errors); the status is fixed per code.',
    message: 'What went wrong, for a developer.',
    recoverable: 'Whether the same request can succeed later (after waiting or fixing account state).',
    hint: 'What to do next.',
    doc_url: 'The documentation anchor of this code.',
    requestId: 'Quote it to support; also in X-Request-Id.',
    details: 'Facts of this failure; `issues[]` lists every invalid or missing field.',
  };
  for (const [name, text] of Object.entries(texts)) {
    if (fields[name]) fields[name] = { ...fields[name], description: text };
  }
  if (fields.code) fields.code = { ...fields.code, enum: Object.keys(ERROR_CODES) };
}
