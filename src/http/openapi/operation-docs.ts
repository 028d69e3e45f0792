import type { ErrorCode } from '../errors.js';

/**
 * What the OpenAPI document says about one operation beyond its route schemas: a stable
 * `operationId`, a short summary, and the codes the route's own services can refuse with.
 * The route's `schema.summary` (a sentence) becomes the description unless one is given
 * here. Codes the shared hooks give (auth, scopes, validation, idempotency, rate limits,
 * faults) are derived from the route's config and schemas (error-codes.ts): list only the rest.
 */
export interface OperationDoc {
  operationId: string;
  summary: string;
  errors: readonly ErrorCode[];
  description?: string;
}

/** Keyed `METHOD /path` as the document shows it, without the listener prefix (`POST /orders`). */
export type OperationTable = Readonly<Record<string, OperationDoc>>;

export const op = (
  operationId: string,
  summary: string,
  errors: readonly ErrorCode[] = [],
  description?: string,
): OperationDoc => ({ operationId, summary, errors, ...(description ? { description } : {}) });

export const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
