/**
 * Descriptions of parameters and of the contract's fields, by name (`in:name` first, then
 * `name`), for those whose schema carries none. A parameter missing from both fails
 * src/http/openapi/openapi.test.ts; a field description in its TypeBox schema wins.
 */
export const GLOSSARY: Readonly<Record<string, string>> = {
  // Paging and time windows
  limit: 'Page size; the default applies when omitted.',
  cursor: 'Opaque cursor from `meta.nextCursor` of the previous page; omit for the first page.',
  from: 'Start of the window, inclusive (RFC 3339, or a UTC day where the schema says `date`).',
  to: 'End of the window, exclusive.',
  since: 'Only records after this instant (RFC 3339, microsecond precision kept); a cursor wins over it.',
  updatedSince: 'Only records changed after this instant (RFC 3339).',
  format: 'Response format; `csv` streams RFC 4180 CSV where offered.',
  // Path ids
  'path:id': 'The id of the resource (uuid).',
  'path:productId': 'Product id (uuid) as listed by GET /products.',
  'path:exportId': 'Export id returned by POST /catalog/exports.',
  'path:reportId': 'Report id returned by POST /reports.',
  'path:orderReadableId': 'Readable order id (`ord_…`) or the order uuid.',
  'path:orderId': 'Order id (readable `ord_…` or uuid) of a deferred order.',
  'path:transactionId': 'Sale line id (`transactionId`).',
  'path:invoiceId': 'Invoice id.',
  'path:promotionId': 'Promotion or deal id from GET /promotions.',
  'path:refundId': 'Refund or chargeback id (`refundId`).',
  'path:reservationId': 'Hot-drop reservation id (`reservationId` from POST /orders/reserve).',
  'path:currency': 'ISO 4217 currency code.',
  'path:attestId': 'Geo attestation id (`attestId` from POST /geo-attestations).',
  'path:orderReference': 'Your order reference of a keyless order (`orderReference`).',
  'path:date': 'A supported contract date (`X-Service-Api-Version` value).',
  // Signed downloads
  expires: 'Expiry of the signed download URL (Unix seconds); part of the signature.',
  signature: 'HMAC signature of the download URL; the URL is the credential.',
  // Catalog and availability
  sellableOnly: 'Only items the key can sell now (shared, allocated, live and in stock).',
  skuCode: 'Publisher SKU code, e.g. `SANDBOX-STD-001` in the sandbox.',
  skuId: 'SKU id (uuid).',
  skuIds: 'Comma-separated SKU ids.',
  skuCodes: 'Comma-separated SKU codes (at most 50).',
  quantity: 'Number of keys.',
  countryCode: 'Buyer country, ISO 3166-1 alpha-2.',
  country: 'ISO 3166-1 alpha-2 country code.',
  currencyCode: 'ISO 4217 currency code.',
  q: 'Free-text search over product names.',
  partner: 'Publisher slug or company id.',
  publisherCompanyId: 'Publisher company id (uuid).',
  sellerCompanyId: 'Seller company id (uuid).',
  companyId: 'Company id (uuid).',
  status: 'Filter or target status (values in the schema).',
  state: 'Filter or target state (values in the schema).',
  slug: 'URL-safe name.',
  locale: 'BCP 47 locale of localized texts; falls back to English.',
  expand: 'Comma-separated expansions (`availability`, `pricing`, `base`).',
  filters: 'Structured filters (see the schema).',
  type: 'Kind of record (values in the schema).',
  types: 'Comma-separated event types.',
  kind: 'Kind of record (values in the schema).',
  kinds: 'Comma-separated activity kinds: sale, refund, chargeback, pull, reveal.',
  entryType: '`sale` or `sale_reversal`.',
  promoId: 'Promotion or deal id.',
  counterparty: 'Counterparty (publisher) company id.',
  environment: '`sandbox` or `production`.',
  includeRevoked: 'Include revoked keys.',
  // Orders
  orderReference:
    'Your order reference, unique per company (per API key in sandbox); repeating it with the same quantity replays the original keys.',
  expectedUnitPriceCents:
    'The `unitPriceCents` preview answered, echoed to bind the price; required unless `priceCommitmentToken` is sent.',
  expectedWholesaleUnitPriceCents: 'The wholesale unit price preview answered, echoed to bind it.',
  priceCommitmentToken:
    'Token from POST /orders/preview, sent unchanged; binds the previewed price instead of `expectedUnitPriceCents`.',
  consumerGeoAttestId:
    'A consumer geo attestation, spent on one order (a retry of the same reference may reuse it).',
  integrationOrderContext:
    'The sale as the buyer saw it. Production checkout requires salesTaxRatePercent, salesPriceGrossMinor, salesChannel, salesCountryCode and consumerIp; sandbox checkout all but consumerIp.',
  deliveryMode: '`key`: keys are delivered in the reply.',
  immediateFulfilment: '`false` defers the reveal: keyIds now, keys with POST /orders/{orderId}/fulfill.',
  checkoutHoldId: 'A live checkout hold (POST /orders/hold) this order commits.',
  holdId: 'The checkout hold id (uuid).',
  ttlSeconds: 'Hold lifetime in seconds (default 1800, clamped to 60..3600).',
  items: 'The lines, each a full order body with its own orderReference.',
  strict: 'All lines or none; default true under contract date 2026-09-01, false under 2026-04-29.',
  allocationId: 'Allocation id (uuid) from GET /allocations.',
  keyIds: 'Key ids as answered by the order (`keyIds`).',
  // After-sale
  refundReference: 'Your refund reference (type refund); once per reference.',
  chargebackReference: 'Your chargeback reference (type chargeback); once per reference.',
  reason: 'Free-text reason, kept with the record.',
  response: '`accept` or `decline`.',
  // API keys, identity
  name: 'A readable name.',
  allowed_ips: 'IPv4/IPv6 addresses or CIDRs allowed to use the key; empty allows any.',
  allowedIps: 'IPv4/IPv6 addresses or CIDRs allowed to use the key; empty allows any.',
  includeFinanceScope: 'Grant seller:finance:read too (only when the creator holds it).',
  scopes: 'Scopes of the key.',
  expiresAt: 'Expiry instant (RFC 3339), or null for none.',
  countries: 'Selling countries, ISO 3166-1 alpha-2 in any case (kept upper case); at least one.',
  currencies: 'Selling currencies, ISO 4217 in any case (kept upper case); at least one.',
  // Allocations
  grantId: 'The allocation (grant) to raise.',
  requestedQuantity: 'The quantity asked for.',
  declaredForecast: 'Your sales forecast for the period, free text or number.',
  publisherAvailableKeys: 'Keys the publisher reports available for this grant.',
  // Webhooks
  url: 'HTTPS URL of the endpoint (no loopback or private addresses).',
  eventTypes: 'Event types delivered to the endpoint (all when omitted).',
  description: 'A free-text note.',
  rotateSecret: 'Issue a new signing secret (answered once); the old one keeps signing for 24 h.',
  // Reports
  reportType: 'The report to build (`activity`).',
  // Test clock
  advanceSeconds: 'Seconds to move the clock forward.',
  sunsetAt: 'When the contract date may stop being served (a future instant).',
  // integrationOrderContext
  schemaVersion: 'Version of the declaration shape (1).',
  salesCountryCode: 'Country of the sale, ISO 3166-1 alpha-2.',
  salesPriceGrossMinor: 'Price the buyer paid, tax included, in minor units.',
  salesPriceNetMinor: 'Price the buyer paid net of tax, in minor units.',
  priceIncludesTax: 'Whether the sales price includes tax.',
  salesTaxRatePercent: 'Sales tax rate applied, in percent.',
  salesTaxAmountMinor: 'Sales tax amount, in minor units.',
  salesChannel: '`web`, `mobile_app`, `partner_embed`, or `marketplace:<slug>` (permitted by the agreement).',
  paymentMethodFamily: 'Payment method family (card, wallet …).',
  paymentProcessorReference: 'Your payment processor reference.',
  checkoutSessionId: 'Your checkout session id.',
  consumerIp:
    'Buyer IPv4/IPv6 address; required on production checkout; resolved to a country then discarded.',
  // Fulfilled responses and their settlement
  keys: 'Plaintext keys, in the order of keyIds (empty with a deferred reveal).',
  pulled: 'Keys taken by this order.',
  activation: 'How the buyer activates the keys (type and countries).',
  warnings: 'What settlement noticed; never changes the status code.',
  deferredReveal: 'Keys are held until POST /orders/{orderId}/fulfill.',
  unitPriceCents: 'Effective (promotion-adjusted) price per key, to echo as expectedUnitPriceCents.',
  initialUnitPriceCents: 'Price per key before promotions.',
  promo: 'The promotion applied, or null.',
  promoResolution: '`applied`, `none` or `unavailable`.',
  canFulfill: 'Whether an order of this quantity could be fulfilled now.',
  maxFulfillableQuantity: 'The most keys an order could take now.',
  settlement: 'Tax settlement of the declared sale (basis, applied rate, rate reason).',
  expiresInSeconds: 'Seconds until expiry.',
  requestId: 'The id of this request (also in X-Request-Id).',
};

export function describe(name: string, where?: string): string | undefined {
  return (where && GLOSSARY[`${where}:${name}`]) || GLOSSARY[name];
}
