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
