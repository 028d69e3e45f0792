import { ERROR_CODES, type ErrorCode } from '../errors.js';
import type { RouteContract } from '../request-context.js';
import type { OperationDoc } from './operation-docs.js';

/** What the route declares (its config and which of its inputs carry a schema). */
export interface RouteFacts {
  method: string;
  config: Partial<RouteContract>;
  hasBody: boolean;
  hasQueryOrParams: boolean;
}

/** Any request can meet these: a bad contract date or request text (input-limits.ts), and service faults. */
const ANY: ErrorCode[] = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'UNSUPPORTED_API_VERSION',
  'INTERNAL_ERROR',
  'STORE_UNAVAILABLE',
  'SERVICE_UNAVAILABLE',
];
/** authenticateSeller, then the sandbox simulate header and the sandbox rate limit (contract-hooks.ts). */
const SELLER_AUTH: ErrorCode[] = [
  'UNAUTHORIZED',
  'KEY_ENVIRONMENT_MISMATCH',
  'IP_NOT_ALLOWED',
  'IP_NOT_RESOLVABLE',
  'PRODUCTION_ACCESS_NOT_APPROVED',
  'VALIDATION_FAILED',
  'RATE_LIMIT_EXCEEDED',
  'HOT_PATH_TIMEOUT',
  'IDEMPOTENCY_REQUEST_IN_PROGRESS',
];
const BODY: ErrorCode[] = ['VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
const IDEMPOTENCY: ErrorCode[] = ['IDEMPOTENCY_KEY_MISMATCH', 'IDEMPOTENCY_REQUEST_IN_PROGRESS'];

/** Every code an operation can answer: those its shared hooks give, then its own (`doc.errors`). */
export function errorCodesOf(facts: RouteFacts, doc: Pick<OperationDoc, 'errors'>): ErrorCode[] {
  const { config } = facts;
  const codes = new Set<ErrorCode>(ANY);
  const add = (list: readonly ErrorCode[]) => {
    for (const code of list) codes.add(code);
  };
  if (config.auth === 'seller') add(SELLER_AUTH);
  if (config.auth === 'admin') add(['UNAUTHORIZED', 'FORBIDDEN']);
  if (config.scopes && config.scopes.length > 0) add(['INSUFFICIENT_SCOPE']);
  // A body is parsed (and limited) on every method but GET and HEAD, declared or not.
  if (facts.hasBody || (facts.method !== 'GET' && facts.method !== 'HEAD')) add(BODY);
  if (facts.hasQueryOrParams) add(['VALIDATION_FAILED']);
  if (config.idempotency) add(IDEMPOTENCY);
  add(doc.errors);
  return [...codes].sort();
}

/** Codes grouped by their HTTP status (a code with two statuses is listed under both). */
export function byStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const groups = new Map<number, ErrorCode[]>();
  const put = (status: number, code: ErrorCode) => groups.set(status, [...(groups.get(status) ?? []), code]);
  for (const code of codes) {
    put(ERROR_CODES[code].status, code);
    if (code === 'PRODUCT_NOT_SELLABLE') put(422, code);
  }
  return new Map([...groups].sort(([a], [b]) => a - b));
}
