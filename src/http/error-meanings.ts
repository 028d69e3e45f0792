import type { ErrorCode } from './errors.js';

/**
 * What each code means, in one sentence: the "meaning" column of docs/errors.md beside the
 * registry's status, `recoverable` and hint. A code added to the registry without a line here
 * fails the docs/errors.md test (src/http/errors-doc.test.ts).
 */
export const ERROR_MEANINGS: Partial<Record<ErrorCode, string>> = {
  BAD_REQUEST:
    'The request could not be read: malformed JSON, an empty JSON body, or request text the service refuses.',
  UNSUPPORTED_API_VERSION: '`X-Service-Api-Version` names a contract date this service does not support.',
  UNAUTHORIZED: 'No usable key: missing, malformed, unknown, revoked or expired, or a key with no scope.',
  FORBIDDEN:
    'The key is valid but this resource or allocation is not open to it now (paused, revoked, or an operator-only action).',
  INSUFFICIENT_SCOPE: 'The key lacks the scope this operation needs.',
  IP_NOT_ALLOWED: 'The key has an IP allowlist and the request came from an address outside it.',
  IP_NOT_RESOLVABLE:
    'The service could not tell which address the request came from (a forwarded header holding no address).',
  PRODUCTION_ACCESS_NOT_APPROVED: 'A production key of a company whose production access is not approved.',
  API_MODEL_AGREEMENT_REQUIRED: 'Production keys need the API Revenue Share Channel Terms signed first.',
  KEY_ENVIRONMENT_MISMATCH:
    'The key belongs to the other environment than the one the request targets (sandbox vs production).',
  CONTRACT_NOT_ACTIVE: "The seller's agreement with this publisher is paused or not yet active.",
  NOT_FOUND: 'No such resource for this key; resources of other companies are reported the same way.',
  PRODUCT_NOT_SELLABLE:
    'The product exists but cannot be sold now (lifecycle, trading state, window); 404 on a live pull, 422 on a pre-order.',
  METHOD_NOT_ALLOWED: 'The path exists but not with this method; `Allow` lists the methods it takes.',
  NO_AVAILABLE_KEYS: 'The pool holds fewer keys than asked for; nothing was pulled.',
  SOLD_OUT: 'No hold or reservation slot is left for this allocation right now.',
  ORDER_REFERENCE_CONFLICT: 'This orderReference was already used for a different SKU or quantity.',
  ORDER_NOT_CANCELLABLE: 'The order is not an accepted, unconverted pre-order, so it cannot be cancelled.',
  REFUND_REFERENCE_CONFLICT: 'This refund or chargeback reference was already used for other keys.',
  ALLOCATION_NOT_AVAILABLE:
    'The allocation was paused, revoked or left hot-drop mode after the reservation was made.',
  IDEMPOTENCY_REQUEST_IN_PROGRESS: 'A request with the same Idempotency-Key is still running.',
  RESERVATION_EXTEND_EXHAUSTED: 'The reservation was already extended once.',
  RESERVATION_COMMIT_IN_PROGRESS: 'Another commit of this reservation is running.',
  RESERVATION_GONE: 'The reservation expired, was released or committed, or never existed.',
  EXPORT_EXPIRED: 'The export artifact is past its expiry and was removed.',
  HOT_DROP_NOT_ENABLED: 'Reservations are only for allocations in hot-drop mode; this one is not.',
  CHECKOUT_HOLD_DISABLED: 'Checkout holds are not enabled for this company.',
  REQUEST_TIMEOUT: 'The request did not arrive in full in time.',
  PAYLOAD_TOO_LARGE: 'The body is larger than the service accepts (1 MiB).',
  UNSUPPORTED_MEDIA_TYPE: 'The body is not `application/json`.',
  EXPECTATION_FAILED: 'An `Expect` header other than `100-continue`.',
  VALIDATION_FAILED:
    "The request does not match the operation's schema: a missing or invalid field, or an unknown field or query parameter; `details.issues[]` names each.",
  REFUND_NOT_ALLOWED: "The allocation's refund policy refuses these keys.",
  IDEMPOTENCY_KEY_MISMATCH: 'The Idempotency-Key was first used with a different body.',
  SANDBOX_MAGIC_VALUE_REJECTED:
    'A sandbox-only value (a magic SKU or simulate header) sent with a production key.',
  TAX_DECLARATION_REQUIRED:
    'The order lacks required declarations; this code leads when the tax ones are among them, and `details.missing` lists every one.',
  SALES_COUNTRY_REQUIRED: 'The order lacks `integrationOrderContext.salesCountryCode`.',
  SALES_CHANNEL_REQUIRED: 'The order lacks `integrationOrderContext.salesChannel`.',
  SALES_CHANNEL_NOT_PERMITTED: 'The declared sales channel is not one the publisher agreement permits.',
  EXPECTED_UNIT_PRICE_REQUIRED:
    'The order binds no price: send `expectedUnitPriceCents` or a `priceCommitmentToken`.',
  CATALOG_PRICE_MISMATCH: 'The catalog price changed since the caller read it.',
  WHOLESALE_PRICE_MISMATCH: 'The wholesale price differs from the one the caller expected.',
  PRICE_COMMITMENT_INVALID: 'The priceCommitmentToken is expired, altered or for another line.',
  EXPECTED_PRICE_CONFLICT: 'The request states two different expected prices.',
  CATALOG_PRICE_NOT_SET: 'The publisher has set no price for this country.',
  FOOTPRINT_COUNTRY_NOT_DECLARED: "The sale's country is not in the seller's declared footprint.",
  FOOTPRINT_CURRENCY_NOT_DECLARED: "The sale's currency is not in the seller's declared footprint.",
  CURRENCY_NOT_PRICED_FOR_COUNTRY: 'The catalog has no price in this currency for this country.',
  CURRENCY_NOT_PERMITTED_BY_TERM: 'The publisher agreement does not permit selling in this currency.',
  SRP_MISMATCH_FOR_CURRENCY: "The declared sales price is below the publisher's floor for this currency.",
  CONSUMER_GEO_MISMATCH_POLICY_REFUSED:
    "The buyer's detected country differs from the declared one and the agreement refuses such sales.",
  REGION_LOCKED: 'The publisher locks sales to this region.',
  COUNTRY_RESTRICTED: 'This country is restricted for the SKU.',
  TERRITORY_NOT_ALLOWED_FOR_SKU: 'The SKU is not sold in this territory.',
  TERRITORY_EXCLUDED_FOR_RELEASE: 'The release excludes this territory.',
  REGION_LOCKED_FOR_CONTRACT: "The seller's agreement locks this region.",
  REGION_LOCKED_FOR_SKU: 'The SKU is region-locked away from this country.',
  SKU_REGION_UNRESOLVED: "The SKU's region could not be resolved.",
  HOLD_MISMATCH:
    'The order names a checkout hold whose SKU, quantity, country or price differ from the order.',
  HOLD_NOT_FOUND: 'The checkout hold named by the order does not exist or has expired.',
  CURRENCY_MISMATCH: 'The currency differs from the active checkout hold.',
  QUANTITY_INVALID: 'The quantity is outside the allowed range (for a reservation, above its maximum).',
  RATE_LIMIT_EXCEEDED: "The sandbox key's company used its requests for this minute.",
  HEADERS_TOO_LARGE: 'The request line and headers exceed 16 KiB.',
  INTERNAL_ERROR: 'The service failed on a fault no transient cause explains; nothing was changed.',
  HOT_PATH_TIMEOUT: 'A dependency of fulfilment timed out; nothing was sold.',
  STORE_UNAVAILABLE: 'The database or Redis was briefly unavailable; nothing was changed.',
  PREORDER_STATE_UNAVAILABLE: 'The pre-order state could not be read right now.',
  SERVICE_UNAVAILABLE: 'The service is starting or shutting down.',
  ALLOCATION_REQUEST_RESOLVED:
    'The allocation increase request was already approved or declined by the operator.',
  GEO_ATTESTATION_CLOSED:
    'The checkout-page geo attestation was already captured, or it expired before capture.',
  REDEMPTION_EXPIRED: 'The keyless redemption record has expired, so no new link can be issued for it.',
  REPLACEMENT_NOT_ALLOWED:
    "The grant's replacement policy refuses this swap: replacements off, the order's limit reached, or the window elapsed.",
};
