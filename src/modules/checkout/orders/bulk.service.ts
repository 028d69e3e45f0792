import type { AppContext } from '../../../context.js';
import { isUniqueViolation } from '../../../db/database.js';
import { ApiError, fail } from '../../../http/errors.js';
import { isClaimTakenOver } from '../../../http/idempotency/claim-fence.js';
import type { OrderBody } from '../checkout.schemas.js';
import type { SellerActor } from '../line/quote.js';
import { fulfil } from './fulfil.service.js';
import {
  commitLine,
  fulfilmentView,
  type Prepared,
  prepareOrder,
  type RequestFacts,
} from './orders.service.js';
import { runningThroughLockCycles } from './write-fulfilment.js';

export interface LineRefusal {
  index: number;
  orderReference: string;
  code: string;
  status: number;
  message: string;
  details: Record<string, unknown>;
}

/** A line's refusal; a claim taken over (claim-fence.ts) is the whole request's, thrown on. */
const refusalOf = (index: number, item: OrderBody, err: unknown): LineRefusal => {
  if (!(err instanceof ApiError) || isClaimTakenOver(err)) throw err;
  return {
    index,
    orderReference: item.orderReference,
    code: err.code,
    status: err.status,
    message: err.message,
    details: err.details,
  };
};

/** A prepared line of the cart: its order row will say it is a bulk line (`orders.bulk_line`). */
async function prepareBulkLine(...args: Parameters<typeof prepareOrder>): Promise<Prepared> {
  const prepared = await prepareOrder(...args);
  return 'request' in prepared ? { request: { ...prepared.request, bulkLine: true } } : prepared;
}

const strictRefusal = (refusals: LineRefusal[]) =>
  fail('VALIDATION_FAILED', `${refusals.length} cart line(s) were refused; nothing was fulfilled (strict).`, {
    lines: refusals,
    issues: refusals.map((r) => ({
      field: `items/${r.index}`,
      in: 'body',
      message: `${r.code}: ${r.message}`,
      keyword: 'line',
    })),
  });

/**
 * POST /orders/bulk. Strict: every line is judged first, then all are fulfilled in one
 * transaction; one refusal fails the cart (422, per-line details) and nothing moves. Not
 * strict: each line commits on its own and the response reports each line.
 */
export async function placeBulk(
  ctx: AppContext,
  actor: SellerActor,
  items: OrderBody[],
  strict: boolean,
  facts: RequestFacts,
) {
  const references = items.map((i) => i.orderReference);
  const repeated = references.find((r, i) => references.indexOf(r) !== i);
  if (repeated) {
    throw fail('VALIDATION_FAILED', `orderReference ${repeated} appears twice in the cart.`, {
      issues: [
        { field: 'items', in: 'body', message: 'orderReference must be unique per line', keyword: 'unique' },
      ],
    });
  }
  if (!strict) {
    const results = [];
    for (const [index, item] of items.entries()) {
      try {
        const { view, replayed } = await commitLine(ctx, await prepareBulkLine(ctx, actor, item, facts));
        results.push({
          index,
          orderReference: item.orderReference,
          status: 'fulfilled' as const,
          replayed,
          data: view,
        });
      } catch (err) {
        results.push({
          index,
          orderReference: item.orderReference,
          status: 'failed' as const,
          error: refusalOf(index, item, err),
        });
      }
    }
    return results;
  }
  const prepared: Prepared[] = [];
  const refusals: LineRefusal[] = [];
  for (const [index, item] of items.entries()) {
    try {
      prepared.push(await prepareBulkLine(ctx, actor, item, facts));
    } catch (err) {
      refusals.push(refusalOf(index, item, err));
    }
  }
  if (refusals.length > 0) throw strictRefusal(refusals);
  let failing = -1;
  try {
    // Lines on several grants lock them in the cart's order, so two carts can wait on each
    // other: the cart the database rolls back runs again, as a lone order does.
    const views = await runningThroughLockCycles(ctx, () =>
      ctx.db.transaction().execute(async (trx) => {
        const done = [];
        for (const [index, line] of prepared.entries()) {
          failing = index;
          if ('replay' in line) done.push({ view: line.replay, replayed: true });
          else
            done.push({
              view: fulfilmentView(line.request, await fulfil(ctx, trx, line.request)),
              replayed: false,
            });
        }
        return done;
      }),
    );
    return views.map(({ view, replayed }, index) => ({
      index,
      orderReference: items[index]!.orderReference,
      status: 'fulfilled' as const,
      replayed,
      data: view,
    }));
  } catch (err) {
    const item = items[failing]!;
    if (isUniqueViolation(err)) {
      // Another request fulfilled this line's reference meanwhile: retrying the cart replays it.
      const raced = fail(
        'ORDER_REFERENCE_CONFLICT',
        `orderReference ${item.orderReference} was fulfilled concurrently.`,
      );
      throw strictRefusal([refusalOf(failing, item, raced)]);
    }
    if (err instanceof ApiError && err.status < 500) throw strictRefusal([refusalOf(failing, item, err)]);
    throw err;
  }
}
