/**
 * The after-sale module's front door: refunds, returns, chargeback reinstatements and key
 * replacements, their routes, and the answer shapes the console reuses.
 */
export { registerAfterSaleRoutes } from './after-sale.routes.js';
export { RefundBody, RefundSchema, ReturnBody, ReturnSchema } from './after-sale.schemas.js';
export { refundView } from './refund-view.js';
export { createRefund, listRefunds } from './refunds.service.js';
export { quarantinedKeysOf, reinstateChargeback } from './reinstatement.service.js';
export { ReplacementSchema, registerReplacementRoutes } from './replacements.routes.js';
export { replaceKey } from './replacements.service.js';
export { returnKeys } from './returns.service.js';
