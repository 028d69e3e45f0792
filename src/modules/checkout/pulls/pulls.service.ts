import type { AppContext } from '../../../context.js';
import { fail } from '../../../http/errors.js';
import { randomBase32 } from '../../../lib/ids.js';
import type { PullBody } from '../checkout.schemas.js';
import { allocationSku } from '../line/checkout.repo.js';
import type { SellerActor } from '../line/quote.js';
import { commitLine, prepareLine, type RequestFacts } from '../orders/orders.service.js';

/** The SKU a pull names: skuCode, or the seller's allocation (id or readable id). */
async function skuCodeOf(ctx: AppContext, actor: SellerActor, body: PullBody): Promise<string> {
  if (!body.allocationId) {
    if (!body.skuCode) {
      throw fail('VALIDATION_FAILED', 'Send allocationId or skuCode.', {
        issues: [
          {
            field: 'skuCode',
            in: 'body',
            message: 'allocationId or skuCode is required',
            keyword: 'required',
          },
        ],
      });
    }
    return body.skuCode;
  }
  const allocation = await allocationSku(ctx.db, actor.sellerId, actor.environment, body.allocationId);
  if (!allocation) throw fail('NOT_FOUND', `No allocation ${body.allocationId}.`);
  if (body.skuCode && body.skuCode !== allocation.code) {
    throw fail('VALIDATION_FAILED', 'skuCode is not the SKU of allocationId.', {
      issues: [
        { field: 'skuCode', in: 'body', message: `allocation is on ${allocation.code}`, keyword: 'const' },
      ],
    });
  }
  return allocation.code;
}

/**
 * POST /keys/pull and /keys/export: custody of keys against an allocation, with the contract
 * checks of an order (no sale price to bind unless one is sent). `keys.pulled` announces it.
 */
export async function pullKeys(
  ctx: AppContext,
  actor: SellerActor,
  body: PullBody,
  kind: 'pull' | 'export',
  facts: RequestFacts,
) {
  const skuCode = await skuCodeOf(ctx, actor, body);
  const orderReference = body.orderReference ?? `${kind}_${randomBase32(20)}`;
  const prepared = await prepareLine(
    ctx,
    actor,
    { ...body, skuCode, orderReference },
    { kind, delivery: body.immediateFulfilment === false ? 'deferred' : 'keys', facts },
  );
  return commitLine(ctx, prepared);
}
