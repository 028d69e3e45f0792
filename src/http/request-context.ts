import type { FastifyRequest } from 'fastify';
import type { Principal, SellerScope } from './auth/principal.js';
import type { Scope } from './auth/scopes.js';
import type { RateBucket, RateClass } from './rate-limit.js';
import type { SimulateValue } from './simulate.js';
import type { ContractDate } from './versioning.js';

/** What a route declares about itself; the shared hooks act on it. */
export interface RouteContract {
  /** `seller`: a seller API key; `admin`: the operator token; `none`: public. */
  auth: 'seller' | 'admin' | 'none';
  /**
   * `false`: a seller route that answers about the key's account (its keys, identity, request
   * log, webhooks and events) rather than acting for the seller, so the auth hook leaves
   * `request.seller` unset and does not provision a sandbox seller: provisioning creates an
   * agreement and emits events, which these answers would show.
   */
  actsForSeller?: false;
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
    /** The seller a seller route acts for, resolved with the principal (unless `actsForSeller: false`). */
    seller: SellerScope | null;
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

/** The seller a seller route acts for (the auth hook resolves it with the principal). */
export function sellerOf(request: { seller: SellerScope | null }): SellerScope {
  if (!request.seller) throw new Error('seller route reached without a seller (actsForSeller: false?)');
  return request.seller;
}

/** Who a seller route acts for and which API key acts. */
export interface SellerActor {
  sellerId: string;
  environment: string;
  apiKeyId: string;
}

/** The seller a seller route acts for, and the API key that acts. */
export function actorOf(request: { principal: Principal | null; seller: SellerScope | null }): SellerActor {
  const { sellerId, environment } = sellerOf(request);
  return { sellerId, environment, apiKeyId: principalOf(request).keyId };
}
