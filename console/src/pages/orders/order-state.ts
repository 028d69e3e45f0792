import type { AfterSale, OrderAggregate, Refund } from '../../data/orders/queries';
import { countOf } from '../../format';

/**
 * An order's state in words: what happened to its keys after the sale ("refunded 1 of 2 ·
 * replaced 1"), or how it stands when nothing did.
 */
export function stateOf(order: OrderAggregate, afterSale: AfterSale): string {
  const of = (n: number) => `${n} of ${order.quantity}`;
  const parts = [
    afterSale.refunded > 0 ? `refunded ${of(afterSale.refunded)}` : null,
    afterSale.chargedBack > 0 ? `charged back ${of(afterSale.chargedBack)}` : null,
    afterSale.returned > 0 ? `returned ${of(afterSale.returned)}` : null,
    afterSale.replaced > 0 ? `replaced ${afterSale.replaced}` : null,
  ].filter((part): part is string => part !== null);
  if (parts.length > 0) return capitalised(parts.join(' · '));
  if (order.delivery === 'preorder') return 'Pre-order, awaiting keys';
  if (order.keyIds.length === 0) return 'No keys';
  if (order.deferredReveal && !order.revealedAt)
    return `${countOf(order.keyIds.length, 'key')} held, not revealed`;
  return `${countOf(order.keyIds.length, 'key')} delivered`;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A refund row's kind: "Refund", "Chargeback", or "Return" (with "money back" when it moved money). */
export function adjustmentLabel(refund: Refund): string {
  if (refund.source === 'return') return 'Return, money back';
  return refund.adjustmentType === 'chargeback' ? 'Chargeback' : 'Refund';
}

/** The order's total: unit price times quantity, in minor units; null for a keyless price. */
export const totalOf = (order: OrderAggregate) =>
  order.unitPriceCents === null ? null : order.unitPriceCents * order.quantity;
