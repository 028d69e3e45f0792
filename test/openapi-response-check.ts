import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its default export arrives wrapped under NodeNext resolution.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Schema = Record<string, unknown>;

interface HeaderDoc {
  required?: boolean;
  $ref?: string;
}

export interface ResponseDoc {
  description?: string;
  headers?: Record<string, HeaderDoc>;
  content?: Record<string, { schema?: Schema }>;
}

export interface OperationDoc {
  operationId?: string;
  requestBody?: unknown;
  responses?: Record<string, ResponseDoc>;
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, OperationDoc>>;
  components?: { schemas?: Record<string, Schema>; headers?: Record<string, HeaderDoc> };
}

/** One reply as the client received it. */
export interface Exchange {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
  /** The body text, or null when it is not held (binary, compressed, a HEAD reply). */
  text: string | null;
  /** Whether any body was sent. */
  hasBody: boolean;
  /** A HEAD request: the reply has the headers of a GET, and no body. */
  head: boolean;
  /** Whether the request carried a body. */
  sentBody: boolean;
}

/**
 * The headers the API itself sets (not HTTP plumbing such as Content-Length or Vary): each one
 * a reply carries must be declared on that reply in the document, so a generated client reads it typed.
 */
export const API_HEADERS = [
  'x-request-id',
  'x-api-version',
  'x-service-api-version',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'etag',
  'idempotency-replayed',
  'deprecation',
  'sunset',
  'link',
  'x-order-reference',
  'x-order-id',
];

const REF_PREFIX = '#/components/';

/**
 * A copy of `schema` as the check reads it: every object that does not say what it does with
 * other fields is closed (`additionalProperties: false`), so a field the document does not
 * name fails. An object that says so stays open: `additionalProperties` given (true or a
 * schema: a map such as `details`), or `patternProperties` (TypeBox `Record`). Members of
 * `allOf` are not closed one by one (each would refuse the others' fields): the `allOf` as a
 * whole is, with `unevaluatedProperties: false`. `$ref`s point into the document's components.
 */
export function closedCopy(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closedCopy);
  if (!schema || typeof schema !== 'object') return schema;
  const source = schema as Schema;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'example' || key === 'examples') continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX)) {
      copy.$ref = `openapi:${value}`;
    } else if (key === 'allOf') {
      copy.allOf = (value as unknown[]).map((member) => openTop(closedCopy(member)));
    } else if (key === 'properties' || key === 'patternProperties' || key === '$defs') {
      copy[key] = Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, closedCopy(v)]));
    } else {
      copy[key] = closedCopy(value);
    }
  }
  const saysWhatElse = source.additionalProperties !== undefined || source.patternProperties !== undefined;
  if (source.properties && !saysWhatElse) copy.additionalProperties = false;
  if (source.allOf && source.unevaluatedProperties === undefined && !saysWhatElse) {
    copy.unevaluatedProperties = false;
  }
  return copy;
}

/** An allOf member keeps its nested objects closed but not its own top level. */
function openTop(member: unknown): unknown {
  if (!member || typeof member !== 'object') return member;
  const { additionalProperties: _closed, ...rest } = member as Schema;
  return (member as Schema).additionalProperties === false ? rest : member;
}

const mediaTypeOf = (contentType: string | undefined) =>
  contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

/** Checks one reply against one document; answers what disagrees (empty when nothing). */
export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly doc: OpenApiDoc) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi:', components: closedCopy(doc.components ?? {}) });
  }

  operation(method: string, path: string): OperationDoc | undefined {
    return this.doc.paths[path]?.[method.toLowerCase()];
  }

  check(operation: OperationDoc, exchange: Exchange): string[] {
    const status = String(exchange.status);
    const response = operation.responses?.[status];
    if (!response) return [`answered status ${status}, which the document does not list`];
    const problems = [...this.checkHeaders(response, exchange)];
    if (exchange.sentBody && !operation.requestBody && exchange.status < 400) {
      problems.push(`${status} accepted a request body, which the document does not declare`);
    }
    const content = response.content ?? {};
    const mediaType = mediaTypeOf(exchange.headers['content-type']);
    if (!exchange.hasBody) {
      if (Object.keys(content).length > 0 && !exchange.head) {
        problems.push(`${status} answered no body; the document declares ${Object.keys(content).join(', ')}`);
      }
      return problems;
    }
    const media = content[mediaType];
    if (!media) {
      const declared = Object.keys(content).join(', ') || 'no body';
      problems.push(
        `${status} answered ${mediaType || 'no content type'}; the document declares ${declared}`,
      );
      return problems;
    }
    if (!isJson(mediaType)) return problems;
    if (!media.schema || Object.keys(media.schema).length === 0) {
      problems.push(`${status} ${mediaType} has no schema in the document`);
      return problems;
    }
    if (exchange.text === null || exchange.headers['content-encoding']) return problems;
    const validate = this.validatorOf(`${operation.operationId} ${status} ${mediaType}`, media.schema);
    let body: unknown;
    try {
      body = JSON.parse(exchange.text);
    } catch {
      return [...problems, `${status} ${mediaType} body is not JSON`];
    }
    if (!validate(body)) {
      const first = validate.errors?.[0];
      const extra =
        first?.params && 'additionalProperty' in first.params ? ` (${first.params.additionalProperty})` : '';
      const unevaluated =
        first?.params && 'unevaluatedProperty' in first.params
          ? ` (${first.params.unevaluatedProperty})`
          : '';
      problems.push(
        `${status} body does not match its schema: ${first?.instancePath || '(root)'} ${first?.message}${extra}${unevaluated}`,
      );
    }
    return problems;
  }

  private checkHeaders(response: ResponseDoc, exchange: Exchange): string[] {
    const declared = new Map<string, HeaderDoc>();
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      declared.set(name.toLowerCase(), this.resolveHeader(header));
    }
    const problems: string[] = [];
    for (const [name, header] of declared) {
      if (header.required && exchange.headers[name] === undefined) {
        problems.push(`${exchange.status} lacks the required header ${name}`);
      }
    }
    for (const name of API_HEADERS) {
      if (exchange.headers[name] !== undefined && !declared.has(name)) {
        problems.push(
          `${exchange.status} sent the header ${name}, which the document does not declare there`,
        );
      }
    }
    return problems;
  }

  private resolveHeader(header: HeaderDoc): HeaderDoc {
    if (!header.$ref?.startsWith(`${REF_PREFIX}headers/`)) return header;
    return this.doc.components?.headers?.[header.$ref.slice(`${REF_PREFIX}headers/`.length)] ?? header;
  }

  private validatorOf(key: string, schema: Schema): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(closedCopy(schema) as Schema);
      this.validators.set(key, validate);
    }
    return validate;
  }
}
