import type { AppContext } from '../../../context.js';
import { fail, isApiError } from '../../../http/errors.js';
import type { IntegrationOrderContext } from '../checkout.schemas.js';
import type { LineInput, SellerActor } from '../line/quote.js';
import {
  findByReference,
  type Prepared,
  prepareAndCommit,
  prepareOrRefuse,
  type RequestFacts,
} from '../orders/orders.service.js';
import { notLive, requireOwnReservation } from './lifecycle.service.js';
import * as repo from './reservations.repo.js';

export interface CommitBody {
  reservationId: string;
  integrationOrderContext: IntegrationOrderContext;
}

const notAvailable = (allocationId: string, reason: string) =>
  fail('ALLOCATION_NOT_AVAILABLE', `The allocation can no longer fulfil this reservation (${reason}).`, {
    allocationId,
    reason,
  });

/**
 * POST /orders/commit: the seller's reservation becomes `committing` in one conditional
 * update (which also proves it the seller's, live and unexpired), so that of concurrent commits
 * exactly one runs (the others: 409 RESERVATION_COMMIT_IN_PROGRESS). The line is quoted again
 * with the commit's declaration (which must carry everything an order's must) and fulfilled
 * exactly as POST /orders is (`commitLine`: one statement on PostgreSQL, else `fulfil`), which
 * consumes the reservation where it pulls the keys. A commit that fails leaves the reservation
 * live again.
 */
export async function commitReservation(
  ctx: AppContext,
  actor: SellerActor,
  body: CommitBody,
  facts: RequestFacts,
) {
  const now = ctx.clock.now();
  const reservation = await repo.startCommit(ctx.db, body.reservationId, actor, now);
  if (!reservation) {
    await requireOwnReservation(ctx, actor, body.reservationId);
    throw await notLive(ctx, body.reservationId, now);
  }
  const referenceTaken = () =>
    fail(
      'ORDER_REFERENCE_CONFLICT',
      `orderReference ${reservation.order_reference} was used for another order.`,
      { orderReference: reservation.order_reference },
    );
  try {
    const line = JSON.parse(reservation.line) as Omit<LineInput, 'quantity'>;
    const prepare = async (speculate: boolean): Promise<Prepared> => {
      // An order already under the reference meets this one on the reference's unique index
      // when it is written (commitLine answers it as a replay); a refused line looks it up
      // here, so that the refusal names the reference first, as it would have been judged.
      const prepared = await prepareOrRefuse(
        ctx,
        actor,
        {
          ...line,
          skuCode: reservation.sku_code,
          quantity: reservation.quantity,
          orderReference: reservation.order_reference,
          integrationOrderContext: body.integrationOrderContext,
        },
        { kind: 'order', delivery: 'keys', facts, referenceChecked: true, speculate },
      );
      if (isApiError(prepared)) {
        if (await findByReference(ctx, actor, reservation.order_reference)) throw referenceTaken();
        // A grant paused or revoked since reserving: the state moved mid-flight (409), not a 403.
        const reason = prepared.code === 'FORBIDDEN' ? prepared.details.reason : undefined;
        throw typeof reason === 'string' ? notAvailable(reservation.allocation_id, reason) : prepared;
      }
      if (!('request' in prepared)) throw notAvailable(reservation.allocation_id, 'reference_taken');
      if (prepared.request.quote.allocation.id !== reservation.allocation_id) {
        // Judged on a catalog version nobody read: judged again on the current one.
        if (prepared.request.quote.versionToProve !== null) return prepare(false);
        throw notAvailable(reservation.allocation_id, 'allocation_changed');
      }
      prepared.request.reservation = { id: reservation.id, quantity: reservation.quantity };
      return prepared;
    };
    const done = await prepareAndCommit(ctx, prepare);
    if (done.replayed) throw referenceTaken();
    return done.view;
  } catch (err) {
    await repo
      .moveReservation(ctx.db, reservation.id, 'committing', 'live', ctx.clock.now())
      .catch(() => undefined);
    throw err;
  }
}
