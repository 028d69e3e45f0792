import { fail } from './errors.js';

export const SIMULATE_HEADER = 'x-service-sandbox-simulate';
export const SIMULATE_VALUES = [
  'rate_limit',
  'hot_path_timeout',
  'key_decrypt_failed',
  'billing_record_failed',
  'internal_error',
  'idempotency_in_flight',
  'webhook_delay_30s',
] as const;
export type SimulateValue = (typeof SIMULATE_VALUES)[number];

/** What each value does; the sandbox guide at /docs is rendered from this table. */
export const SIMULATE_EFFECTS: Record<SimulateValue, string> = {
  rate_limit: '429 `RATE_LIMIT_EXCEEDED` with `Retry-After: 1`, before the route runs; nothing changes.',
  hot_path_timeout: '503 `HOT_PATH_TIMEOUT` before the route runs; nothing is pulled.',
  key_decrypt_failed:
    'Checkout fails inside the fulfilment transaction (500 `INTERNAL_ERROR`, `details.reason`); everything rolls back.',
  billing_record_failed:
    'Checkout fails while writing the billing record (500 `INTERNAL_ERROR`, `details.reason`); everything rolls back.',
  internal_error: '500 `INTERNAL_ERROR` before the route runs; nothing changes.',
  idempotency_in_flight:
    '409 `IDEMPOTENCY_REQUEST_IN_PROGRESS` with `Retry-After: 1`, as if this key were still running.',
  webhook_delay_30s: 'The order commits; its events are published and delivered 30 s later.',
};

/** Parses the sandbox simulate header once; production keys may not send it. */
export function parseSimulate(raw: string | string[] | undefined, environment: string): SimulateValue | null {
  if (raw === undefined) return null;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (environment !== 'sandbox') {
    throw fail('KEY_ENVIRONMENT_MISMATCH', 'X-Service-Sandbox-Simulate works only with sandbox keys.');
  }
  if (!(SIMULATE_VALUES as readonly string[]).includes(value ?? '')) {
    throw fail('VALIDATION_FAILED', 'X-Service-Sandbox-Simulate has an unknown value.', {
      issues: [
        {
          field: 'X-Service-Sandbox-Simulate',
          in: 'headers',
          message: `must be one of ${SIMULATE_VALUES.join(', ')}`,
          keyword: 'enum',
        },
      ],
    });
  }
  return value as SimulateValue;
}

/**
 * The simulations that answer before any route logic runs: each returns its live code and
 * changes nothing, so the same Idempotency-Key succeeds when retried without the header.
 * The others (`key_decrypt_failed`, `billing_record_failed`, `webhook_delay_30s`) are
 * acted on inside the features they concern.
 */
export function shortCircuitFor(value: SimulateValue | null) {
  switch (value) {
    case 'rate_limit':
      return fail(
        'RATE_LIMIT_EXCEEDED',
        'Simulated: sandbox rate limit exceeded.',
        { simulated: true },
        { 'Retry-After': '1' },
      );
    case 'internal_error':
      return fail('INTERNAL_ERROR', 'Simulated: internal error; nothing was changed.', { simulated: true });
    case 'idempotency_in_flight':
      return fail(
        'IDEMPOTENCY_REQUEST_IN_PROGRESS',
        'Simulated: a request with this Idempotency-Key is in flight.',
        { simulated: true },
        { 'Retry-After': '1' },
      );
    case 'hot_path_timeout':
      return fail('HOT_PATH_TIMEOUT', 'Simulated: the fulfilment hot path timed out; nothing was pulled.', {
        simulated: true,
      });
    default:
      return null;
  }
}

/** Every sandbox magic SKU's code starts with this; production keys are refused such a code. */
export const MAGIC_SKU_PREFIX = 'SANDBOX-';

export const isMagicSkuCode = (code: string): boolean => code.toUpperCase().startsWith(MAGIC_SKU_PREFIX);
