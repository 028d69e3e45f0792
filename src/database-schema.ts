import type { ReplicaWriteMarksTable } from './db/replica.table.js';
import type {
  IdempotencyRecordsTable,
  ProcessHeartbeatsTable,
} from './http/idempotency/idempotency.table.js';
import type { ContractSunsetsTable } from './http/sunsets.table.js';
import type {
  KeyReplacementsTable,
  RefundKeysTable,
  RefundsTable,
} from './modules/after-sale/after-sale.table.js';
import type {
  AllocationRequestsTable,
  AllocationsTable,
  SharesTable,
  SkuSellabilityTable,
  TimeSweepsTable,
} from './modules/allocations/allocations.table.js';
import type { ApiKeysTable } from './modules/api-keys/api-keys.table.js';
import type { ConsoleAuditTable } from './modules/audit/audit.table.js';
import type {
  EditionsTable,
  ProductRelationsTable,
  ProductsTable,
  ReferenceRatesTable,
  ReleasesTable,
  SkusTable,
  TerritoryPricesTable,
} from './modules/catalog/catalog.table.js';
import type { CatalogExportsTable } from './modules/catalog/exports.table.js';
import type {
  CatalogVersionTable,
  CheckoutHoldsTable,
  OrdersTable,
  RedemptionsTable,
} from './modules/checkout/checkout.table.js';
import type {
  ReservationPoolsTable,
  ReservationSlotsTable,
  ReservationsTable,
} from './modules/checkout/reservations/reservations.table.js';
import type { CompaniesTable, SellerFootprintsTable } from './modules/companies/companies.table.js';
import type {
  ConsoleInvitesTable,
  ConsoleRecoveryCodesTable,
  ConsoleSessionsTable,
  ConsoleSettingsTable,
  ConsoleSigninFailuresTable,
  ConsoleUsersTable,
} from './modules/console/console.table.js';
import type { CatalogChangesTable, OutboxEventsTable } from './modules/events/events.table.js';
import type {
  ActivityDayTotalsTable,
  ActivityEntriesTable,
  ApiUsageDailyTable,
  FinanceInvoicesTable,
  FinanceReportsTable,
  SaleLinesTable,
  SaleTotalsTable,
} from './modules/finance/finance.table.js';
import type { GeoAttestationsTable } from './modules/geo-attest/geo-attest.table.js';
import type { GameKeysTable, KeyPoolsTable, PoolStockTable } from './modules/inventory/inventory.table.js';
import type { ConsoleNoticeCursorTable, ConsoleNoticesTable } from './modules/notices/notices.table.js';
import type { TestClockTable } from './modules/operator/test-clock.table.js';
import type {
  AgreementAmendmentsTable,
  AgreementsTable,
  PartnerConnectionsTable,
} from './modules/partners/partners.table.js';
import type { PromotionResponsesTable, PromotionsTable } from './modules/promotions/promotions.table.js';
import type { RequestLogTable } from './modules/request-log/request-log.table.js';
import type {
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from './modules/webhooks/webhooks.table.js';

/**
 * The composition root's half of the schema: src/db declares `Database` empty (it sits below the
 * modules and knows none of their tables); here every table is added to it, each from the
 * module (or src/http, src/db) that owns its `.table.ts`, so every `Db` and `Executor` in the
 * program is typed with the whole schema.
 */
declare module './db/database.js' {
  interface Database {
    companies: CompaniesTable;
    seller_footprints: SellerFootprintsTable;
    api_keys: ApiKeysTable;
    idempotency_records: IdempotencyRecordsTable;
    process_heartbeats: ProcessHeartbeatsTable;
    partner_connections: PartnerConnectionsTable;
    agreements: AgreementsTable;
    agreement_amendments: AgreementAmendmentsTable;
    products: ProductsTable;
    product_relations: ProductRelationsTable;
    editions: EditionsTable;
    releases: ReleasesTable;
    skus: SkusTable;
    territory_prices: TerritoryPricesTable;
    reference_rates: ReferenceRatesTable;
    shares: SharesTable;
    allocations: AllocationsTable;
    allocation_requests: AllocationRequestsTable;
    sku_sellability: SkuSellabilityTable;
    time_sweeps: TimeSweepsTable;
    contract_sunsets: ContractSunsetsTable;
    key_pools: KeyPoolsTable;
    game_keys: GameKeysTable;
    promotions: PromotionsTable;
    catalog_changes: CatalogChangesTable;
    outbox_events: OutboxEventsTable;
    webhook_endpoints: WebhookEndpointsTable;
    webhook_deliveries: WebhookDeliveriesTable;
    webhook_attempts: WebhookAttemptsTable;
    catalog_exports: CatalogExportsTable;
    orders: OrdersTable;
    checkout_holds: CheckoutHoldsTable;
    reservations: ReservationsTable;
    reservation_pools: ReservationPoolsTable;
    reservation_slots: ReservationSlotsTable;
    geo_attestations: GeoAttestationsTable;
    key_replacements: KeyReplacementsTable;
    redemptions: RedemptionsTable;
    sale_lines: SaleLinesTable;
    activity_entries: ActivityEntriesTable;
    test_clock: TestClockTable;
    catalog_version: CatalogVersionTable;
    promotion_responses: PromotionResponsesTable;
    finance_invoices: FinanceInvoicesTable;
    finance_reports: FinanceReportsTable;
    api_usage_daily: ApiUsageDailyTable;
    sale_totals: SaleTotalsTable;
    activity_day_totals: ActivityDayTotalsTable;
    pool_stock: PoolStockTable;
    refunds: RefundsTable;
    refund_keys: RefundKeysTable;
    console_users: ConsoleUsersTable;
    console_invites: ConsoleInvitesTable;
    console_sessions: ConsoleSessionsTable;
    console_signin_failures: ConsoleSigninFailuresTable;
    console_recovery_codes: ConsoleRecoveryCodesTable;
    console_settings: ConsoleSettingsTable;
    console_audit: ConsoleAuditTable;
    console_notices: ConsoleNoticesTable;
    console_notice_cursor: ConsoleNoticeCursorTable;
    request_log: RequestLogTable;
    replica_write_marks: ReplicaWriteMarksTable;
  }
}
