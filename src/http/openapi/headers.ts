import { SUPPORTED_CONTRACT_DATES } from '../versioning.js';
import type { RouteFacts } from './error-codes.js';

const integer = { type: 'integer' as const };
const text = { type: 'string' as const };

/**
 * The response headers the shared hooks set, as reusable components: every reply carries the
 * three version and request headers; the others where the route's config says they can appear.
 */
export const HEADER_COMPONENTS = {
  XRequestId: {
    description: 'The id of this request; quote it to support (errors repeat it as `requestId`).',
    required: true,
    schema: text,
  },
  XApiVersion: {
    description: 'The major version of the API.',
    required: true,
    schema: { type: 'string' as const, enum: ['1'] },
  },
  XServiceApiVersion: {
    description: 'The contract date applied: the one pinned by the request, else the current default.',
    required: true,
    schema: { type: 'string' as const, enum: [...SUPPORTED_CONTRACT_DATES] },
  },
  Deprecation: {
    description:
      'Sent when the request pinned a contract date whose sunset is published: when it was published (`@` unix seconds).',
    schema: text,
  },
  Sunset: {
    description: 'With Deprecation: the HTTP date after which the pinned contract date is no longer served.',
    schema: text,
  },
  Link: { description: 'With Deprecation: where the sunset is explained (`rel="sunset"`).', schema: text },
  XRateLimitLimit: {
    description: 'Sandbox keys: requests allowed per minute in this route class and bucket.',
    schema: integer,
  },
  XRateLimitRemaining: { description: 'Sandbox keys: requests left in the current window.', schema: integer },
  XRateLimitReset: { description: 'Sandbox keys: when the window frees up (unix seconds).', schema: integer },
  IdempotencyReplayed: {
    description: '`true` when this is the stored reply of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string' as const, enum: ['true'] },
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying (where the code is recoverable).',
    schema: integer,
  },
};

const ref = (name: keyof typeof HEADER_COMPONENTS) => ({ $ref: `#/components/headers/${name}` });

/** The shared headers of one response of a route. */
export function headersOf(facts: RouteFacts, options: { retry: boolean }): Record<string, { $ref: string }> {
  return {
    'X-Request-Id': ref('XRequestId'),
    'X-Api-Version': ref('XApiVersion'),
    'X-Service-Api-Version': ref('XServiceApiVersion'),
    Deprecation: ref('Deprecation'),
    Sunset: ref('Sunset'),
    Link: ref('Link'),
    ...(facts.config.auth === 'seller'
      ? {
          'X-RateLimit-Limit': ref('XRateLimitLimit'),
          'X-RateLimit-Remaining': ref('XRateLimitRemaining'),
          'X-RateLimit-Reset': ref('XRateLimitReset'),
        }
      : {}),
    ...(facts.config.idempotency ? { 'Idempotency-Replayed': ref('IdempotencyReplayed') } : {}),
    ...(options.retry ? { 'Retry-After': ref('RetryAfter') } : {}),
  };
}
