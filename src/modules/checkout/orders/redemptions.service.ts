import type { AppContext } from '../../../context.js';
import { isoOf } from '../../../lib/clock.js';
import { emit } from '../../events/index.js';
import { claimNotice, recordsDueForNotice } from '../redemption/redemption.repo.js';

/** `redemption.expiring` goes out this long before a keyless record expires. */
export const EXPIRING_NOTICE_MS = 24 * 3_600_000;
const BATCH = 200;

type Notice = 'expiring' | 'expired';

/**
 * Announces keyless redemption records reaching their notices: `expiring` about
 * 24 h before `expiresAt`, `expired` after it, once each per fulfilment. Each record is claimed
 * by a conditional update in the transaction that writes its event, so any number of processes
 * may sweep at once. A record found already expired gets only `expired`.
 */
export async function sweepRedemptions(ctx: AppContext): Promise<{ expiring: number; expired: number }> {
  const now = ctx.clock.now();
  const counts = { expiring: 0, expired: 0 };
  for (const notice of ['expired', 'expiring'] as Notice[]) {
    const column = notice === 'expiring' ? 'expiring_notified_at' : 'expired_notified_at';
    const due = notice === 'expiring' ? now + EXPIRING_NOTICE_MS : now;
    const rows = await recordsDueForNotice(ctx.db, column, due, BATCH);
    for (const r of rows) {
      const sent = await ctx.db.transaction().execute(async (trx) => {
        const set =
          notice === 'expired'
            ? { expired_notified_at: now, expiring_notified_at: r.expiring_notified_at ?? now }
            : { expiring_notified_at: now };
        if (!(await claimNotice(trx, r.id, column, set))) return false;
        const data = {
          fulfillmentId: r.id,
          orderReference: r.order_reference,
          skuId: r.sku_id,
          platformCode: r.platform_code,
          provider: 'service_hosted',
          expiresAt: isoOf(r.expires_at),
          ...(notice === 'expired' ? { effectiveAt: isoOf(r.expires_at) } : {}),
        };
        await emit(
          ctx,
          trx,
          [{ companyId: r.seller_company_id, environment: r.environment }],
          `redemption.${notice}`,
          data,
        );
        return true;
      });
      if (sent) counts[notice]++;
    }
  }
  return counts;
}
