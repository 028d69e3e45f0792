/**
 * The checkout module's front door: orders, bulk carts, holds, pulls, pre-orders, hot-drop
 * reservations and redemption links, their routes and jobs, the reads the console and after-sale
 * reuse, and the order locks a refund or a replacement takes.
 */
export { CancelledPreorder, ReleasedReservation, registerCancelRoutes } from './cancel.routes.js';
export { apiAuditBy, registerCheckoutRoutes } from './checkout.routes.js';
export { registerHoldRoutes } from './holds/holds.routes.js';
export { promisedOnAllocation } from './line/promised-capacity.repo.js';
export type { SellerActor } from './line/quote.js';
export { referenceOwner } from './orders/fulfil.service.js';
export { activityEntryOf } from './orders/order-activity.js';
export {
  type AdjustableOrder,
  lockOrders,
  releaseOrderReference,
} from './orders/order-adjustments.service.js';
export { OrderAggregate, orderListPage, registerOrderReadRoutes } from './orders/order-reads.routes.js';
export { getOrder } from './orders/order-reads.service.js';
export { findOrder, ORDER_ORIGINS, type OrderRow, orderForOperator } from './orders/orders.repo.js';
export { sweepRedemptions } from './orders/redemptions.service.js';
export { cancelPreorder } from './preorders/cancel.service.js';
export { failPreorder } from './preorders/failure.service.js';
export { registerPreorderJob } from './preorders/preorders.job.js';
export { registerPullRoutes } from './pulls/pulls.routes.js';
export { changeLink } from './redemption/links.service.js';
export { registerRedemptionPage } from './redemption/redemption-page.routes.js';
export { slotStoreOf } from './reservations/admission-store.js';
export { cancelReservation, sweepReservations } from './reservations/lifecycle.service.js';
export {
  liveReservationTotals,
  reservationOfOrder,
  reservationsUnderReference,
} from './reservations/reservations.repo.js';
export { registerReservationRoutes } from './reservations/reservations.routes.js';
