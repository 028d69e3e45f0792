import type { Environment } from '../../lib/environment.js';

/**
 * One seller API request, written after the reply in batches (docs/console.md): never a body of
 * a successful call, never a token, never an address; the ApiError body of a failure is kept.
 */
export interface RequestLogTable {
  request_id: string;
  company_id: string;
  environment: Environment;
  key_id: string;
  key_name: string;
  method: string;
  /** The route pattern (`/api/seller/v1/orders/:id`) and the path without its query string. */
  route: string;
  path: string;
  status: number;
  error_code: string | null;
  error_body: string | null;
  duration_ms: number;
  contract_date: string;
  at: number;
  /** The route's rate-limit class and bucket (null on rows written before they were recorded). */
  rate_class: string | null;
  rate_bucket: string | null;
}
