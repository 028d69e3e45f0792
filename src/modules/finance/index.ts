/**
 * The finance module's front door: the sale and activity records checkout and after-sale write,
 * reversals, the finance reads (statements, sales, activity, invoices, reports, usage) and the
 * answer shapes the console reuses.
 */
export { ActivityFilterQuery, activityFilterOf, registerActivityRoutes } from './activity.routes.js';
export { activityPage } from './activity.service.js';
export { listApiSales } from './api-sales.service.js';
export { ApiSalesQuery, apiSalesPage, registerFinanceRoutes, StatementsResponse } from './finance.routes.js';
export { ActivityEntrySchema, InvoiceSchema, Month, SaleLineSchema } from './finance.schemas.js';
export { firstOrderOf, recordActivity, recordSale, type SaleRecord, saleRows } from './finance.service.js';
export { closeMonth, getInvoice, listInvoices } from './invoices.service.js';
export { ReportSchema, registerReportRoutes } from './reports.routes.js';
export { reportCsv, reportStatus, startReport } from './reports.service.js';
export {
  type MovedAmounts,
  originalSalesOf,
  recordReinstatement,
  recordReversal,
} from './reversals.service.js';
export { statements } from './statements.service.js';
export { usage } from './usage.service.js';
export { installUsageCounting, type UsageCounter } from './usage-counter.js';
