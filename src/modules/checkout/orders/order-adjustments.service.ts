import * as repo from './order-adjustments.repo.js';

/**
 * What after-sale needs of orders, inside its own transaction: the orders its keys were sold
 * under (locked, so two refunds completing one order see each other), and freeing the
 * reference of an order that was refunded in full (docs/after-sale.md, "The freed order reference").
 */
export const lockOrders = repo.lockOrders;
export const releaseOrderReference = repo.releaseReference;
export const RELEASED_REFERENCE_MARK = repo.RELEASED_MARK;
export type AdjustableOrder = Awaited<ReturnType<typeof repo.lockOrders>>[number];
