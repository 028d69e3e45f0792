import { isoOf, isoOrNull } from '../../lib/clock.js';
import type { RefundRow } from './after-sale.repo.js';

/** A refund or chargeback adjustment as the seller sees it (POST /refunds, GET /refunds). */
export function refundView(row: RefundRow) {
  const referenceField = row.adjustment_type === 'chargeback' ? 'chargebackReference' : 'refundReference';
  return {
    refundId: row.id,
    adjustmentType: row.adjustment_type,
    adjustmentStatus: 'completed' as const,
    [referenceField]: row.reference,
    source: row.source,
    orderReferences: JSON.parse(row.order_references) as string[],
    keyIds: JSON.parse(row.key_ids) as string[],
    amounts: JSON.parse(row.amounts) as {
      currencyCode: string;
      grossCents: number;
      wholesaleCents: number;
    }[],
    reason: row.reason,
    reinstatedAt: isoOrNull(row.reinstated_at),
    createdAt: isoOf(row.created_at),
  };
}

export type RefundView = ReturnType<typeof refundView>;
