import type { AppContext } from '../../../context.js';
import { fail } from '../../../http/errors.js';
import { isoOf, isoOrNull } from '../../../lib/clock.js';
import { emit } from '../../events/index.js';
import type { SellerActor } from '../line/quote.js';
import { findByReference } from '../orders/orders.service.js';
import { issueLink, linkUrl } from './links.js';
import * as repo from './redemption.repo.js';

const notKeyless = (orderReference: string) =>
  fail('NOT_FOUND', `No keyless redemption record for orderReference ${orderReference}.`, {
    orderReference,
  });

/**
 * Revokes or regenerates the buyer's link of a keyless order (docs/after-sale.md), under the
 * record's row lock: a revoked link answers the "withdrawn" page at once; a regenerated one
 * replaces the token, so the old link is unknown from then on. The new link is in this answer
 * only. Revoking a revoked link changes nothing and answers as before; an expired record gets
 * no new link.
 */
export async function changeLink(
  ctx: AppContext,
  actor: SellerActor,
  orderReference: string,
  change: 'revoke' | 'regenerate',
) {
  const order = await findByReference(ctx, actor, orderReference);
  if (order?.delivery !== 'keyless') throw notKeyless(orderReference);
  return ctx.db.transaction().execute(async (trx) => {
    const record = await repo.lockRecordOfOrder(trx, order.id);
    if (!record) throw notKeyless(orderReference);
    const now = ctx.clock.now();
    const seller = [{ companyId: actor.sellerId, environment: actor.environment }];
    const base = { fulfillmentId: record.id, orderReference, expiresAt: isoOf(record.expires_at) };
    if (change === 'revoke') {
      if (record.revoked_at === null) {
        await repo.updateLink(trx, record.id, { revoked_at: now });
        await emit(ctx, trx, seller, 'redemption.revoked', {
          fulfillmentId: record.id,
          orderReference,
          revokedAt: isoOf(now),
        });
      }
      return { ...base, url: null, revokedAt: isoOrNull(record.revoked_at ?? now) };
    }
    if (record.expires_at <= now) {
      throw fail('REDEMPTION_EXPIRED', `The redemption record of ${orderReference} expired.`, {
        orderReference,
        expiredAt: isoOf(record.expires_at),
      });
    }
    const link = issueLink(ctx);
    await repo.updateLink(trx, record.id, {
      token_hash: link.token_hash,
      token_sealed: link.token_sealed,
      revoked_at: null,
    });
    await emit(ctx, trx, seller, 'redemption.regenerated', base);
    return { ...base, url: linkUrl(ctx, link.token), revokedAt: null };
  });
}
