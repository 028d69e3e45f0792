/**
 * The one registry of ApiError codes, with each code's HTTP status, `recoverable` and hint;
 * docs/errors.md is generated from it (`npm run docs:errors`).
 *
 * `recoverable: true` means the same request, sent again unchanged, can succeed later: after
 * waiting (a retry, stock, a running request), or once state outside the request changes (the
 * seller's account or footprint, an agreement, the publisher's catalog). `false` means the
 * request as sent fails again: the caller must change it (or its key) first.
 */
interface CodeInfo {
  status: number;
  recoverable: boolean;
  hint: string;
}

const code = (status: number, recoverable: boolean, hint: string): CodeInfo => ({
  status,
  recoverable,
  hint,
});

export const ERROR_CODES = {
  BAD_REQUEST: code(400, false, 'Fix the request as `message` says and send it again.'),
  UNSUPPORTED_API_VERSION: code(400, false, 'Pin X-Service-Api-Version to a supported date or omit it.'),
  UNAUTHORIZED: code(
    401,
    false,
    'Send `Authorization: Bearer <key>` with a live key; call GET /whoami to diagnose.',
  ),
  FORBIDDEN: code(403, false, 'The resource or allocation is not open to this key right now.'),
  INSUFFICIENT_SCOPE: code(403, false, 'Create a key that holds the scope named in `message`.'),
  IP_NOT_ALLOWED: code(
    403,
    false,
    "Call from an address in the key's allowlist; to add this one, call PATCH /keys/{id}/allowed-ips from an allowed address or with another key of your company.",
  ),
  IP_NOT_RESOLVABLE: code(
    403,
    false,
    'The client address could not be determined; check your proxy headers.',
  ),
  PRODUCTION_ACCESS_NOT_APPROVED: code(
    403,
    false,
    'Production access for your company is not enabled yet; use a sandbox key meanwhile.',
  ),
  API_MODEL_AGREEMENT_REQUIRED: code(
    403,
    false,
    'Sign the API Revenue Share Channel Terms before creating production keys.',
  ),
  KEY_ENVIRONMENT_MISMATCH: code(
    403,
    false,
    'Use a key of the environment (sandbox or production) that this request targets.',
  ),
  CONTRACT_NOT_ACTIVE: code(
    403,
    true,
    'The agreement with this publisher is paused; review partner contracts.',
  ),
  NOT_FOUND: code(404, false, 'Check the id or path; resources of other companies are never visible.'),
  PRODUCT_NOT_SELLABLE: code(
    404,
    true,
    'Follow `details.recommendedAction`; the product is not sellable now.',
  ),
  METHOD_NOT_ALLOWED: code(405, false, 'Use one of the methods named in the Allow header.'),
  NO_AVAILABLE_KEYS: code(409, true, 'Nothing was pulled; retry later or order a smaller quantity.'),
  SOLD_OUT: code(409, true, 'No hold or reservation slots are left; retry later.'),
  ORDER_REFERENCE_CONFLICT: code(409, false, 'Use a new orderReference; a reference never tops up.'),
  ORDER_NOT_CANCELLABLE: code(
    409,
    false,
    'Only an accepted pre-order not yet converted can be cancelled; return delivered keys with POST /keys/return.',
  ),
  REFUND_REFERENCE_CONFLICT: code(
    409,
    false,
    'This refund or chargeback reference was used for other keys; use a new reference.',
  ),
  ALLOCATION_NOT_AVAILABLE: code(
    409,
    true,
    'The allocation was paused or left hot-drop mode; check GET /allocations.',
  ),
  IDEMPOTENCY_REQUEST_IN_PROGRESS: code(
    409,
    true,
    'A request with this Idempotency-Key is still running; retry after Retry-After.',
  ),
  RESERVATION_EXTEND_EXHAUSTED: code(409, false, 'A reservation extends once; commit it or reserve again.'),
  RESERVATION_COMMIT_IN_PROGRESS: code(
    409,
    true,
    'Another commit of this reservation is running; retry with the same Idempotency-Key.',
  ),
  ALLOCATION_REQUEST_RESOLVED: code(
    409,
    false,
    'The increase request was already approved or declined; read it for the decision.',
  ),
  RESERVATION_GONE: code(
    410,
    false,
    'The reservation expired, was consumed or never existed; reserve again.',
  ),
  GEO_ATTESTATION_CLOSED: code(
    409,
    false,
    'The attestation was captured already or expired; create a new one for the checkout.',
  ),
  REDEMPTION_EXPIRED: code(
    410,
    false,
    'The redemption record expired; refund the keys instead of issuing a new link.',
  ),
  EXPORT_EXPIRED: code(410, false, 'The export artifact expired; start a new export.'),
  HOT_DROP_NOT_ENABLED: code(
    412,
    false,
    'Use POST /orders or a hold; this allocation is not in hot-drop mode.',
  ),
  CHECKOUT_HOLD_DISABLED: code(412, false, 'Checkout holds are disabled here; call POST /orders directly.'),
  REQUEST_TIMEOUT: code(408, true, 'Send the whole request promptly, then retry it.'),
  PAYLOAD_TOO_LARGE: code(413, false, 'Send a smaller body.'),
  UNSUPPORTED_MEDIA_TYPE: code(415, false, 'Send the body as application/json.'),
  EXPECTATION_FAILED: code(417, false, 'Send no Expect header, or Expect: 100-continue.'),
  VALIDATION_FAILED: code(422, false, 'Fix the fields named in `details.issues` and send again.'),
  REFUND_NOT_ALLOWED: code(
    422,
    false,
    "The allocation's refundPolicy refuses these keys (details.keys says why); a chargeback is not refused.",
  ),
  REPLACEMENT_NOT_ALLOWED: code(
    422,
    false,
    "The grant's replacement policy refuses this one; see details.reason, or refund the key.",
  ),
  IDEMPOTENCY_KEY_MISMATCH: code(
    422,
    false,
    'An Idempotency-Key is bound to its first body; use a new key for a new request.',
  ),
  SANDBOX_MAGIC_VALUE_REJECTED: code(422, false, 'Sandbox magic values work only with sandbox keys.'),
  TAX_DECLARATION_REQUIRED: code(
    422,
    false,
    'Declare salesTaxRatePercent and salesPriceGrossMinor in integrationOrderContext.',
  ),
  SALES_COUNTRY_REQUIRED: code(422, false, 'Declare integrationOrderContext.salesCountryCode.'),
  SALES_CHANNEL_REQUIRED: code(422, false, 'Declare integrationOrderContext.salesChannel.'),
  SALES_CHANNEL_NOT_PERMITTED: code(422, true, 'Sell through a channel in details.permittedChannelList.'),
  EXPECTED_UNIT_PRICE_REQUIRED: code(
    422,
    false,
    'Echo unitPriceCents from preview as expectedUnitPriceCents.',
  ),
  CATALOG_PRICE_MISMATCH: code(422, false, 'Preview again and echo the current unitPriceCents.'),
  WHOLESALE_PRICE_MISMATCH: code(422, false, 'Preview again and echo the current wholesale price.'),
  PRICE_COMMITMENT_INVALID: code(
    422,
    false,
    'Preview again and send the new priceCommitmentToken unchanged.',
  ),
  EXPECTED_PRICE_CONFLICT: code(422, false, 'Send one consistent expected price.'),
  CATALOG_PRICE_NOT_SET: code(
    422,
    true,
    'The publisher has no price for this country; pick another or wait.',
  ),
  FOOTPRINT_COUNTRY_NOT_DECLARED: code(422, true, 'Add the country to your footprint (PUT /me/footprint).'),
  FOOTPRINT_CURRENCY_NOT_DECLARED: code(422, true, 'Add the currency to your footprint (PUT /me/footprint).'),
  CURRENCY_NOT_PRICED_FOR_COUNTRY: code(422, true, 'Sell in a currency the catalog prices for this country.'),
  CURRENCY_NOT_PERMITTED_BY_TERM: code(
    422,
    true,
    'Sell in a currency your publisher agreement permits (GET /whoami).',
  ),
  SRP_MISMATCH_FOR_CURRENCY: code(422, false, 'Raise the price to at least details.floorMinor.'),
  CONSUMER_GEO_MISMATCH_POLICY_REFUSED: code(
    422,
    true,
    "The buyer's detected country disagrees with the declaration and the agreement refuses such sales.",
  ),
  REGION_LOCKED: code(422, true, 'The publisher locks this region; review publisher region locks.'),
  COUNTRY_RESTRICTED: code(422, true, 'This country is restricted for the SKU.'),
  TERRITORY_NOT_ALLOWED_FOR_SKU: code(422, true, 'The SKU is not sold in this territory.'),
  TERRITORY_EXCLUDED_FOR_RELEASE: code(422, true, 'The release excludes this territory.'),
  REGION_LOCKED_FOR_CONTRACT: code(422, true, 'Your agreement locks this region.'),
  REGION_LOCKED_FOR_SKU: code(422, true, 'The SKU is region-locked away from this country.'),
  SKU_REGION_UNRESOLVED: code(422, true, 'The SKU region could not be resolved; contact the publisher.'),
  HOLD_MISMATCH: code(422, false, 'Post the order without checkoutHoldId, or match the hold exactly.'),
  HOLD_NOT_FOUND: code(422, false, 'Post the order without checkoutHoldId.'),
  CURRENCY_MISMATCH: code(422, false, 'Use the currency of the active checkout hold or reservation.'),
  QUANTITY_INVALID: code(422, false, 'Send a quantity within the allowed range.'),
  RATE_LIMIT_EXCEEDED: code(429, true, 'Wait Retry-After seconds; production keys are never rate limited.'),
  HEADERS_TOO_LARGE: code(431, false, 'Keep the request line and headers under 16 KiB together.'),
  // Not recoverable: a fault no transient cause explains (those answer 503) fails the same
  // request again; nothing was changed, so a corrected request may be sent.
  INTERNAL_ERROR: code(
    500,
    false,
    'Retrying the same request is not expected to help; quote requestId to support.',
  ),
  HOT_PATH_TIMEOUT: code(503, true, 'Retry with backoff and the same Idempotency-Key.'),
  STORE_UNAVAILABLE: code(503, true, 'Retry with backoff.'),
  PREORDER_STATE_UNAVAILABLE: code(503, true, 'Retry after Retry-After seconds.'),
  SERVICE_UNAVAILABLE: code(503, true, 'Retry with backoff.'),
} as const satisfies Record<string, CodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export class ApiError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** Replaces the registry hint where the code's usual advice does not fit (see `withHint`). */
  hint: string | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    headers: Record<string, string> = {},
    /** Only for the codes with two statuses (PRODUCT_NOT_SELLABLE: 404 live pull, 422 pre-order). */
    status?: number,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status ?? ERROR_CODES[code].status;
    this.headers = headers;
  }

  /** The advice for this failure when the code's registry hint speaks of another situation. */
  withHint(hint: string): this {
    this.hint = hint;
    return this;
  }
}

/** Services refuse with `throw fail(...)`; the one error handler renders the envelope. */
export const fail = (
  errorCode: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
  headers?: Record<string, string>,
  status?: number,
): ApiError => new ApiError(errorCode, message, details, headers, status);

const TRANSIENT_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'RATE_LIMIT_EXCEEDED',
  'IDEMPOTENCY_REQUEST_IN_PROGRESS',
  'RESERVATION_COMMIT_IN_PROGRESS',
]);

/** A failure that says nothing final about the request: an idempotent retry must run it again. */
export const isTransient = (error: ApiError): boolean =>
  error.status >= 500 || TRANSIENT_CODES.has(error.code);

export const isApiError = (err: unknown): err is ApiError => err instanceof ApiError;
