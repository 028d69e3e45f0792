import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { isoOf } from '../../lib/clock.js';
import { OPERATOR, recordAudit } from '../audit/index.js';
import { recordReinstatement } from '../finance/index.js';
import { unquarantineKeys } from '../inventory/index.js';
import * as repo from './after-sale.repo.js';
import { refundView } from './refund-view.js';

/**
 * Operator: the seller won a chargeback. In one transaction, exactly once: every reversal row
 * of the chargeback gets a `sale` row again (statement bucket `reinstatedCents`) with a `sale`
 * activity entry, and its keys leave quarantine, sold to their order again. A refund (not a
 * chargeback) cannot be reinstated; a second reinstatement is refused.
 */
export async function reinstateChargeback(ctx: AppContext, refundId: string) {
  return ctx.db.transaction().execute(async (trx) => {
    const refund = await repo.findRefundById(trx, refundId, true);
    if (!refund) throw fail('NOT_FOUND', `No refund ${refundId}.`);
    const refuse = (reason: string, message: string) =>
      fail('VALIDATION_FAILED', message, {
        reason,
        refundId,
        issues: [{ field: 'refundId', in: 'path', message, keyword: 'state' }],
      });
    if (refund.adjustment_type !== 'chargeback')
      throw refuse('not_a_chargeback', 'Only a chargeback can be reinstated.');
    if (refund.reinstated_at !== null)
      throw refuse('already_reinstated', `The chargeback was reinstated at ${isoOf(refund.reinstated_at)}.`);
    const now = ctx.clock.now();
    const moved = await recordReinstatement(trx, JSON.parse(refund.reversal_ids) as string[], now);
    const keys = await repo.keysOfRefund(trx, refundId);
    await unquarantineKeys(
      trx,
      keys.filter((k) => k.outcome === 'quarantined').map((k) => k.key_id),
    );
    await repo.markKeysReinstated(trx, refundId, now);
    await repo.updateRefund(trx, refundId, { reinstated_at: now });
    const reinstatedCents = new Map<string, number>();
    for (const m of moved)
      reinstatedCents.set(m.currencyCode, (reinstatedCents.get(m.currencyCode) ?? 0) + m.grossCents);
    const reinstated = [...reinstatedCents.entries()].map(([currencyCode, cents]) => ({
      currencyCode,
      reinstatedCents: cents,
    }));
    await recordAudit(
      ctx,
      {
        companyId: refund.seller_company_id,
        ...OPERATOR,
        action: 'chargeback.reinstated',
        target: refundId,
        detail: { environment: refund.environment, reference: refund.reference, reinstated },
      },
      trx,
    );
    return { ...refundView({ ...refund, reinstated_at: now }), reinstated };
  });
}

/** Operator: a publisher's quarantined keys, newest first, with why and when. */
export async function quarantinedKeysOf(
  ctx: AppContext,
  publisherId: string,
  limit: number,
  before?: readonly [number, string],
) {
  const rows = await repo.quarantinedKeys(ctx.db, publisherId, limit, before);
  return rows.map((r) => ({
    row: r,
    view: {
      keyId: r.key_id,
      publisherCompanyId: r.publisher_company_id,
      sellerCompanyId: r.seller_company_id,
      environment: r.environment,
      skuCode: r.sku_code,
      orderReference: r.order_reference,
      cause: r.cause,
      reason: r.reason,
      refundId: r.refund_id,
      returnId: r.return_id,
      quarantinedAt: isoOf(r.created_at),
    },
  }));
}
