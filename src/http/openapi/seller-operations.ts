import type { ErrorCode } from '../errors.js';
import { type OperationTable, op } from './operation-docs.js';

/** The sellability and commercial gates every checkout line passes (docs/checkout.md). */
const GATES: ErrorCode[] = [
  'NOT_FOUND',
  'FORBIDDEN',
  'PRODUCT_NOT_SELLABLE',
  'CONTRACT_NOT_ACTIVE',
  'FOOTPRINT_COUNTRY_NOT_DECLARED',
  'FOOTPRINT_CURRENCY_NOT_DECLARED',
  'CURRENCY_NOT_PERMITTED_BY_TERM',
  'CURRENCY_NOT_PRICED_FOR_COUNTRY',
  'SRP_MISMATCH_FOR_CURRENCY',
  'REGION_LOCKED',
  'CONSUMER_GEO_MISMATCH_POLICY_REFUSED',
  'COUNTRY_RESTRICTED',
  'TERRITORY_NOT_ALLOWED_FOR_SKU',
  'TERRITORY_EXCLUDED_FOR_RELEASE',
  'REGION_LOCKED_FOR_CONTRACT',
  'REGION_LOCKED_FOR_SKU',
  'SKU_REGION_UNRESOLVED',
  'CATALOG_PRICE_NOT_SET',
  'SALES_CHANNEL_NOT_PERMITTED',
  'SANDBOX_MAGIC_VALUE_REJECTED',
  'PREORDER_STATE_UNAVAILABLE',
];
/** The declarations an order must carry, all named at once in `details.issues`. */
const DECLARATIONS: ErrorCode[] = [
  'TAX_DECLARATION_REQUIRED',
  'SALES_COUNTRY_REQUIRED',
  'SALES_CHANNEL_REQUIRED',
];
/** The price bind: the expected price must equal the effective price now. */
const PRICE_BIND: ErrorCode[] = [
  'EXPECTED_UNIT_PRICE_REQUIRED',
  'CATALOG_PRICE_MISMATCH',
  'WHOLESALE_PRICE_MISMATCH',
  'PRICE_COMMITMENT_INVALID',
  'EXPECTED_PRICE_CONFLICT',
];
/** Taking keys: stock, references, holds. */
const FULFIL: ErrorCode[] = [
  'NO_AVAILABLE_KEYS',
  'ORDER_REFERENCE_CONFLICT',
  'ALLOCATION_NOT_AVAILABLE',
  'HOLD_MISMATCH',
  'HOLD_NOT_FOUND',
  'CURRENCY_MISMATCH',
  'QUANTITY_INVALID',
];
const ORDER: ErrorCode[] = [...GATES, ...DECLARATIONS, ...PRICE_BIND, ...FULFIL];
const ARTIFACT: ErrorCode[] = ['FORBIDDEN', 'NOT_FOUND', 'EXPORT_EXPIRED'];

/** Every seller operation (`/api/seller/v1` …). A route missing here fails src/http/openapi/openapi.test.ts. */
export const SELLER_OPERATIONS: OperationTable = {
  'GET /health': op('getHealth', 'Service health'),
  'GET /whoami-ip': op('getClientIp', 'Show the caller address'),
  'GET /whoami': op('whoami', 'Describe the calling key'),
  'GET /integration/status': op('getIntegrationStatus', 'Integration readiness', ['NOT_FOUND']),
  'GET /me/footprint': op('getFootprint', 'Read the selling footprint'),
  'PUT /me/footprint': op('setFootprint', 'Replace the selling footprint'),
  'GET /keys': op('listApiKeys', 'List API keys'),
  'POST /keys': op('createApiKey', 'Create an API key', ['API_MODEL_AGREEMENT_REQUIRED']),
  'PATCH /keys/{id}/allowed-ips': op('setApiKeyAllowedIps', 'Replace an IP allowlist', ['NOT_FOUND']),
  'POST /keys/{id}/rotate': op('rotateApiKey', 'Rotate an API key', ['NOT_FOUND']),
  'DELETE /keys/{id}': op('revokeApiKey', 'Revoke an API key', ['NOT_FOUND']),
  'GET /partners': op('listPartners', 'List publisher connections'),
  'GET /allocations': op('listAllocations', 'List allocations'),
  'GET /allocations/requests': op('listAllocationRequests', 'List allocation requests'),
  'POST /allocations/requests': op('createAllocationRequest', 'Request more allocation', [
    'NOT_FOUND',
    'CONTRACT_NOT_ACTIVE',
  ]),
  'GET /availability': op('getAvailability', 'Check availability', [
    'NOT_FOUND',
    'SANDBOX_MAGIC_VALUE_REJECTED',
  ]),
  'GET /products': op('listProducts', 'List products'),
  'GET /products/{productId}': op('getProduct', 'Get a product', ['NOT_FOUND']),
  'GET /products/{productId}/pricing': op('getProductPricing', 'Get territory prices', ['NOT_FOUND']),
  'GET /catalog/checksum': op('getCatalogChecksum', 'Catalog checksum'),
  'GET /catalog/changes': op('listCatalogChanges', 'List catalog changes'),
  'GET /catalog/snapshot': op('getCatalogSnapshot', 'Download the catalog snapshot'),
  'POST /catalog/exports': op('createCatalogExport', 'Start a catalog export', ['CONTRACT_NOT_ACTIVE']),
  'GET /catalog/exports/{exportId}': op('getCatalogExport', 'Get a catalog export', [
    'NOT_FOUND',
    'EXPORT_EXPIRED',
  ]),
  'GET /catalog/exports/{exportId}/artifact': op(
    'downloadCatalogExport',
    'Download a catalog export',
    ARTIFACT,
  ),
  'POST /orders/preview': op('previewOrder', 'Preview an order line', [
    ...GATES,
    ...PRICE_BIND,
    'QUANTITY_INVALID',
  ]),
  'POST /orders': op('createOrder', 'Place an order', ORDER),
  'GET /orders': op('listOrders', 'List orders'),
  'POST /orders/bulk': op('createBulkOrder', 'Place a multi-SKU order', ORDER),
  'POST /orders/hold': op('createCheckoutHold', 'Hold stock for a checkout', [
    ...GATES,
    ...PRICE_BIND,
    'SOLD_OUT',
    'CHECKOUT_HOLD_DISABLED',
    'QUANTITY_INVALID',
  ]),
  'DELETE /orders/hold': op('releaseCheckoutHold', 'Release a checkout hold', [
    'NOT_FOUND',
    'HOLD_NOT_FOUND',
  ]),
  'GET /orders/{orderReadableId}': op('getOrder', 'Get an order', ['NOT_FOUND']),
  'POST /orders/reserve': op('reserveOrder', 'Reserve hot-drop stock', [
    ...GATES,
    ...PRICE_BIND,
    'HOT_DROP_NOT_ENABLED',
    'SOLD_OUT',
    'QUANTITY_INVALID',
    'STORE_UNAVAILABLE',
  ]),
  'POST /orders/commit': op('commitReservation', 'Commit a hot-drop reservation', [
    ...ORDER,
    'RESERVATION_GONE',
    'RESERVATION_COMMIT_IN_PROGRESS',
  ]),
  'POST /orders/{reservationId}/extend': op('extendReservation', 'Extend a hot-drop reservation', [
    'RESERVATION_GONE',
    'RESERVATION_EXTEND_EXHAUSTED',
  ]),
  'POST /orders/cancel': op('cancelOrder', 'Release a reservation or cancel a pre-order', [
    'NOT_FOUND',
    'RESERVATION_GONE',
    'ORDER_NOT_CANCELLABLE',
  ]),
  'POST /orders/{orderId}/fulfill': op('fulfillOrder', 'Reveal a deferred order', [
    'NOT_FOUND',
    'CONTRACT_NOT_ACTIVE',
    'FORBIDDEN',
  ]),
  'POST /geo-attestations': op('createGeoAttestation', 'Create a checkout geo attestation'),
  'GET /geo-attestations/{attestId}': op('getGeoAttestation', 'Get a checkout geo attestation', [
    'NOT_FOUND',
  ]),
  'POST /geo-attestations/{attestId}/capture': op(
    'captureGeoAttestation',
    "Capture a geo attestation from the buyer's page",
    ['NOT_FOUND', 'GEO_ATTESTATION_CLOSED', 'IP_NOT_RESOLVABLE', 'RATE_LIMIT_EXCEEDED'],
  ),
  'POST /orders/recover-keys': op('recoverOrderKeys', 'Recover the keys of an order', ['NOT_FOUND']),
  'POST /keys/pull': op('pullKeys', 'Pull keys into custody', ORDER),
  'POST /keys/export': op('exportKeys', 'Pull keys as a ZIP file', ORDER),
  'GET /finance/api-sales': op('listApiSales', 'List sale lines'),
  'GET /finance/api-sales/{transactionId}': op('getApiSale', 'Get a sale line', ['NOT_FOUND']),
  'GET /finance/statements': op('listStatements', 'Monthly statements'),
  'GET /finance/summary': op('getFinanceSummary', 'Totals per currency'),
  'GET /finance/invoices': op('listInvoices', 'List invoices'),
  'GET /finance/invoices/{invoiceId}': op('getInvoice', 'Get an invoice', ['NOT_FOUND']),
  'GET /activity': op('listActivity', 'Settlement activity'),
  'GET /transactions': op('listTransactions', 'Wholesale ledger'),
  'GET /usage': op('getUsage', 'API usage per day'),
  'POST /reports': op('createReport', 'Start an activity export'),
  'GET /reports/{reportId}': op('getReport', 'Get an activity export', ['NOT_FOUND', 'EXPORT_EXPIRED']),
  'GET /reports/{reportId}/artifact': op('downloadReport', 'Download an activity export', ARTIFACT),
  'GET /promotions': op('listPromotions', 'List promotions'),
  'GET /promotions/calendar': op('getPromotionCalendar', 'Promotion calendar'),
  'POST /promotions/{promotionId}/respond': op('respondToPromotion', 'Accept or decline a promotion', [
    'NOT_FOUND',
  ]),
  'POST /refunds': op('createRefund', 'Declare a refund or chargeback', [
    'NOT_FOUND',
    'REFUND_NOT_ALLOWED',
    'REFUND_REFERENCE_CONFLICT',
  ]),
  'GET /refunds': op('listRefunds', 'List refunds'),
  'GET /refunds/{refundId}': op('getRefund', 'Get a refund', ['NOT_FOUND']),
  'POST /keys/return': op('returnKeys', 'Return keys', ['NOT_FOUND', 'REFUND_NOT_ALLOWED']),
  'POST /keys/replace': op('replaceKey', 'Replace a reported key', [
    'REPLACEMENT_NOT_ALLOWED',
    'NO_AVAILABLE_KEYS',
    'ALLOCATION_NOT_AVAILABLE',
  ]),
  'POST /orders/{orderReference}/redemption/revoke': op(
    'revokeRedemptionLink',
    'Revoke a keyless redemption link',
    ['NOT_FOUND'],
  ),
  'POST /orders/{orderReference}/redemption/regenerate': op(
    'regenerateRedemptionLink',
    'Regenerate a keyless redemption link',
    ['NOT_FOUND', 'REDEMPTION_EXPIRED'],
  ),
  'POST /webhooks': op('createWebhook', 'Create a webhook endpoint'),
  'GET /webhooks': op('listWebhooks', 'List webhook endpoints'),
  'PATCH /webhooks/{id}': op('updateWebhook', 'Edit a webhook endpoint', ['NOT_FOUND']),
  'DELETE /webhooks/{id}': op('deleteWebhook', 'Delete a webhook endpoint', ['NOT_FOUND']),
  'POST /webhooks/{id}/test': op('testWebhook', 'Send a test event', ['NOT_FOUND', 'VALIDATION_FAILED']),
  'POST /webhooks/{id}/disable': op('disableWebhook', 'Pause a webhook endpoint', ['NOT_FOUND']),
  'POST /webhooks/{id}/enable': op('enableWebhook', 'Re-enable a webhook endpoint', ['NOT_FOUND']),
  'POST /webhooks/{id}/resend': op('resendWebhookEvent', 'Resend one event to an endpoint', [
    'NOT_FOUND',
    'VALIDATION_FAILED',
  ]),
  'GET /webhooks/{id}/replay': op('previewWebhookReplay', 'Count the events a replay would queue', [
    'NOT_FOUND',
  ]),
  'POST /webhooks/{id}/replay': op('replayWebhookEvents', 'Replay failed events since a time', ['NOT_FOUND']),
  'GET /webhooks/{id}/deliveries': op('listWebhookDeliveries', 'List deliveries of an endpoint', [
    'NOT_FOUND',
  ]),
  'GET /events': op('listEvents', 'List events'),
  'GET /request-logs': op('listRequestLogs', 'List recent API requests', ['VALIDATION_FAILED']),
};
