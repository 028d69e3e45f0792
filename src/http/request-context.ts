import type { FastifyRequest } from 'fastify';
import type { Principal } from './auth/principal.js';
import type { Scope } from './auth/scopes.js';
import type { RateBucket, RateClass } from './rate-limit.js';
import type { SimulateValue } from './simulate.js';
import type { ContractDate } from './versioning.js';

/** What a route declares about itself; the shared hooks act on it. */
export interface RouteContract {
  /** `seller`: a seller API key; `admin`: the operator token; `none`: public. */
  auth: 'seller' | 'admin' | 'none';
  /** Any one of these scopes admits the key. */
  scopes?: readonly Scope[];
  idempotency?: 'required' | 'optional';
  rateClass?: RateClass;
  /** Defaults from the method: GET/HEAD read, others write. */
  rateBucket?: RateBucket;
  /**
   * The route serves pages from the page cache (http/page-cache.ts) under this key: a request
   * whose page is cached debits `read-cached` instead of `read`.
   */
  pageCacheKey?: (request: FastifyRequest) => string;
  /**
   * The answer carries a secret: an API key's token, a webhook signing secret, a TOTP secret or
   * recovery codes, a CSRF token, an invite or redemption link, a game key, a signed download.
   * It is then `Cache-Control: no-store` whatever the handler set (http/response-headers.ts).
   */
  carriesSecret?: true;
  /**
   * The route reads its body as a stream of one of these media types (media type → what the
   * text holds); the OpenAPI document declares them as its request body, and any other body
   * (JSON) is refused with UNSUPPORTED_MEDIA_TYPE.
   */
  streamedBody?: Readonly<Record<string, string>>;
}

declare module 'fastify' {
  interface FastifyContextConfig extends Partial<RouteContract> {}

  interface FastifyRequest {
    principal: Principal | null;
    contractDate: ContractDate;
    simulate: SimulateValue | null;
    clientIp: string | null;
    /** Set when the reply is a failure that a retry may turn out differently. */
    transientFailure: boolean;
    /** The cached page found for the route's `pageCacheKey` before the rate limit was debited. */
    cachedPage: string | null;
  }
}

/** The authenticated principal of a seller route (the auth hook guarantees it). */
export function principalOf(request: { principal: Principal | null }): Principal {
  if (!request.principal) throw new Error('seller route reached without a principal');
  return request.principal;
}
