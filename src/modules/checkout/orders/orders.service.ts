import type { AppContext } from '../../../context.js';
import { Duplicate, unlessDuplicate, writesProveReads } from '../../../db/guarded-writes.js';
import { type ApiError, fail, isApiError } from '../../../http/errors.js';
import type { Claim } from '../../../http/idempotency/record-key.js';
import type { SimulateValue } from '../../../http/simulate.js';
import { companyFacts } from '../../companies/index.js';
import { keysOfOrder, openKeys } from '../../inventory/index.js';
import { KEYLESS_FIXTURE } from '../../sandbox/index.js';
import type { OrderBody } from '../checkout.schemas.js';
import type { Delivery, OrderKind } from '../checkout.table.js';
import { effectiveStatus, type HoldOutcome, ownHold } from '../holds/holds.service.js';
import { skuForCheckout } from '../line/checkout.repo.js';
import type { LineInput, SellerActor } from '../line/quote.js';
import { quoteOrRefusal } from '../line/quote.service.js';
import { liveLinkOf } from '../redemption/links.js';
import { type Fulfilment, referenceOwner } from './fulfil.service.js';
import type { FulfilRequest } from './fulfil-request.js';
import { fulfilledView } from './order-view.js';
import * as repo from './orders.repo.js';
import { takenBackKeys } from './taken-back-keys.js';
import { writeFulfilment } from './write-fulfilment.js';

export interface RequestFacts {
  contractDate: string;
  simulate: SimulateValue | null;
  /** The request's Idempotency-Key claim, null without a key. */
  claim: Claim | null;
}

const list = (json: string | null): string[] | null => (json ? (JSON.parse(json) as string[]) : null);

/**
 * The response of an order as it was fulfilled: keys re-opened from the store, never kept in
 * plaintext. Keys taken back since (refund, chargeback, return) are left out and named in
 * `refundedKeyIds`: a replay never answers their plaintext, and never pulls others instead.
 */
export async function orderResponse(ctx: AppContext, order: repo.OrderRow, hold?: HoldOutcome | null) {
  const [all, takenBack] = await Promise.all([
    keysOfOrder(ctx.db, order.id),
    takenBackKeys(ctx.db, [order.id]).then((byOrder) => byOrder.get(order.id) ?? new Set<string>()),
  ]);
  const keys = all.filter((k) => !takenBack.has(k.id));
  const sku = await skuForCheckout(ctx.db, order.environment, order.sku_code);
  const redemption =
    order.delivery === 'keyless' ? await repo.redemptionOfOrder(ctx.db, order.id) : undefined;
  return fulfilledView(order, {
    keys: order.delivery === 'keys' ? openKeys(ctx, keys) : [],
    keyIds: keys.map((k) => k.id),
    refundedKeyIds: [...takenBack].sort(),
    activation: {
      type: sku?.activation_type ?? 'unknown',
      countries: list(sku?.activation_countries ?? null),
    },
    hold,
    redemption: redemption
      ? { fulfillmentId: redemption.id, expiresAt: redemption.expires_at, url: liveLinkOf(ctx, redemption) }
      : null,
  });
}

/** The same order reference replays its order; any other quantity or SKU never tops up. */
async function replayOrConflict(
  ctx: AppContext,
  existing: repo.OrderRow,
  request: { skuCode?: string; quantity: number },
) {
  if (existing.delivery === 'cancelled' || existing.delivery === 'failed') {
    const ended = existing.delivery === 'cancelled' ? 'cancelled' : 'failed';
    throw fail(
      'ORDER_REFERENCE_CONFLICT',
      `orderReference ${existing.order_reference} names a ${ended} pre-order.`,
      {
        orderReference: existing.order_reference,
        reason: `order_${ended}`,
      },
    );
  }
  if (existing.quantity !== request.quantity || (request.skuCode && existing.sku_code !== request.skuCode)) {
    throw fail(
      'ORDER_REFERENCE_CONFLICT',
      `orderReference ${existing.order_reference} was used for another order.`,
      {
        orderReference: existing.order_reference,
        existingQuantity: existing.quantity,
        existingSkuCode: existing.sku_code,
        requestedQuantity: request.quantity,
      },
    );
  }
  return orderResponse(ctx, existing);
}

/** Finds an earlier fulfilment under the reference, for replay. */
export const findByReference = (ctx: AppContext, actor: SellerActor, reference: string) =>
  repo.findByReference(ctx.db, actor.environment, referenceOwner(actor), reference);

export type Prepared = { replay: Awaited<ReturnType<typeof orderResponse>> } | { request: FulfilRequest };

interface PrepareOptions {
  kind: OrderKind;
  delivery: Delivery;
  holdId?: string | null;
  facts: RequestFacts;
  /** The caller answers for a reference already fulfilled (`prepareOrder`, `placeOrder`). */
  referenceChecked?: boolean;
  /** The caller meets an unproven quote again (`placeOrder`): see `quoteOrRefusal`. */
  speculate?: boolean;
}

/**
 * Everything before the transaction: a reference already fulfilled replays (or conflicts);
 * otherwise the line is quoted through every gate and becomes a fulfilment request, or is
 * refused (the refusal as a value).
 */
export async function prepareOrRefuse(
  ctx: AppContext,
  actor: SellerActor,
  input: LineInput & { orderReference: string },
  options: PrepareOptions,
): Promise<Prepared | ApiError> {
  if (!options.referenceChecked) {
    const existing = await findByReference(ctx, actor, input.orderReference);
    if (existing) return { replay: await replayOrConflict(ctx, existing, input) };
  }
  const mode = options.kind === 'order' ? 'order' : 'pull';
  const quote = await quoteOrRefusal(ctx, actor, input, mode, { speculate: options.speculate });
  if (isApiError(quote)) return quote;
  return {
    request: {
      actor,
      quote,
      kind: options.kind,
      orderReference: input.orderReference,
      quantity: input.quantity,
      delivery: quote.preorder ? 'preorder' : options.delivery,
      holdId: options.holdId ?? null,
      attestId: input.consumerGeoAttestId,
      contractDate: options.facts.contractDate,
      simulate: options.facts.simulate,
      claim: options.facts.claim,
    },
  };
}

/** `prepareOrRefuse`, the refusal thrown as the request's answer. */
export async function prepareLine(
  ctx: AppContext,
  actor: SellerActor,
  input: LineInput & { orderReference: string },
  options: PrepareOptions,
): Promise<Prepared> {
  const prepared = await prepareOrRefuse(ctx, actor, input, options);
  if (isApiError(prepared)) throw prepared;
  return prepared;
}

/** The response of a fulfilment just committed. */
export function fulfilmentView(request: FulfilRequest, done: Fulfilment) {
  const view = fulfilledView(done.order, {
    keys: done.plaintext,
    keyIds: done.keys.map((k) => k.id),
    activation: request.quote.activation,
    hold: done.hold,
    redemption: done.redemption,
  });
  const releaseAt = request.quote.preorder?.expectedReleaseAt;
  if (view.reserved) view.reserved.expectedReleaseAt = releaseAt ? new Date(releaseAt).toISOString() : null;
  return view;
}

/** A committed line's answer: the order's view, and whether it replays an earlier order. */
export interface CommittedLine {
  view: Awaited<ReturnType<typeof orderResponse>>;
  replayed: boolean;
}

/**
 * Commits one prepared line in its own transaction. A concurrent request with the same
 * reference loses on the unique index; it then replays the winner (or conflicts). For a line
 * quoted without reading the catalog version use `prepareAndCommit`, which meets a version
 * that moved.
 */
export async function commitLine(ctx: AppContext, prepared: Prepared): Promise<CommittedLine> {
  const committed = await commitIfProven(ctx, prepared);
  if (committed === 'unproven')
    throw new Error('commitLine was given a speculative quote: use prepareAndCommit');
  return committed;
}

/** `'unproven'`: a speculative quote (`Quote.versionToProve`) whose catalog version moved before it was written. */
async function commitIfProven(ctx: AppContext, prepared: Prepared): Promise<CommittedLine | 'unproven'> {
  if ('replay' in prepared) return { view: prepared.replay, replayed: true };
  const { request } = prepared;
  const done = await unlessDuplicate(writeFulfilment(ctx, request));
  if (done === 'unproven') return 'unproven';
  if (!(done instanceof Duplicate)) return { view: fulfilmentView(request, done), replayed: false };
  const winner = await findByReference(ctx, request.actor, request.orderReference);
  if (!winner) throw done.error;
  return { view: await replayOrConflict(ctx, winner, request), replayed: true };
}

/** The hold an order names must match it (else the refusal, as a value); a live one lends its currency. */
async function matchHold(ctx: AppContext, actor: SellerActor, body: OrderBody) {
  if (!body.checkoutHoldId) return null;
  const hold = await ownHold(ctx, actor, body.checkoutHoldId);
  if (isApiError(hold)) return hold;
  const country = (body.countryCode ?? body.integrationOrderContext?.salesCountryCode)?.toUpperCase();
  const mismatched = [
    hold.sku_code !== body.skuCode && 'skuCode',
    hold.quantity !== body.quantity && 'quantity',
    hold.order_reference !== body.orderReference && 'orderReference',
    country !== undefined && country !== hold.country_code && 'countryCode',
  ].filter((f): f is string => typeof f === 'string');
  if (mismatched.length > 0) {
    return fail(
      'HOLD_MISMATCH',
      `The order does not match checkout hold ${hold.id} (${mismatched.join(', ')}).`,
      {
        holdId: hold.id,
        mismatchedFields: mismatched,
        recommendedAction: 'fallback_to_post_orders_without_hold',
      },
    );
  }
  const currency = body.integrationOrderContext?.currencyCode?.toUpperCase();
  const live = effectiveStatus(hold, ctx.clock.now()) === 'active';
  if (live && currency && currency !== hold.currency_code) {
    return fail('CURRENCY_MISMATCH', `The checkout hold is in ${hold.currency_code}, not ${currency}.`, {
      holdId: hold.id,
      holdCurrencyCode: hold.currency_code,
      currencyCode: currency,
    });
  }
  return { hold, currency: live ? hold.currency_code : undefined };
}

/**
 * Keys in the response by default; `immediateFulfilment: false` defers the reveal; keyless
 * delivery (a hosted redemption record) for sellers with the capability, asked for explicitly
 * or by default on the SANDBOX-KEYLESS-001 fixture. Keyless asked for without the capability
 * is refused (the refusal as a value).
 */
async function chooseDelivery(
  ctx: AppContext,
  actor: SellerActor,
  body: OrderBody,
): Promise<Delivery | ApiError> {
  const { company } = await companyFacts(ctx, actor.sellerId);
  const keylessEnabled = company?.keylessEnabled ?? false;
  if (body.deliveryMode === 'keyless' && !keylessEnabled) {
    return fail('VALIDATION_FAILED', 'Keyless delivery is not enabled for your company.', {
      issues: [{ field: 'deliveryMode', in: 'body', message: 'keyless is not enabled', keyword: 'enum' }],
    });
  }
  const keyless =
    body.deliveryMode === 'keyless' ||
    (body.deliveryMode === undefined && keylessEnabled && body.skuCode === KEYLESS_FIXTURE);
  if (keyless) return 'keyless';
  return body.immediateFulfilment === false ? 'deferred' : 'keys';
}

/** Prepares one order (a line of POST /orders/bulk): a reference already fulfilled replays. */
export async function prepareOrder(
  ctx: AppContext,
  actor: SellerActor,
  body: OrderBody,
  facts: RequestFacts,
): Promise<Prepared> {
  const existing = await findByReference(ctx, actor, body.orderReference);
  if (existing) return { replay: await replayOrConflict(ctx, existing, body) };
  const prepared = await prepareNewOrder(ctx, actor, body, facts);
  if (isApiError(prepared)) throw prepared;
  return prepared;
}

/** A new order's line: its hold matched, its delivery chosen, then prepared; or the first refusal. */
async function prepareNewOrder(
  ctx: AppContext,
  actor: SellerActor,
  body: OrderBody,
  facts: RequestFacts,
  speculate = false,
): Promise<Prepared | ApiError> {
  const matched = await matchHold(ctx, actor, body);
  if (isApiError(matched)) return matched;
  const delivery = await chooseDelivery(ctx, actor, body);
  if (isApiError(delivery)) return delivery;
  return prepareOrRefuse(
    ctx,
    actor,
    { ...body, currencyCode: matched?.currency },
    { kind: 'order', delivery, holdId: matched?.hold.id ?? null, facts, referenceChecked: true, speculate },
  );
}

/**
 * POST /orders (docs/checkout.md, "One path for every line"). A reference already fulfilled
 * replays its order whatever the line would be judged now, without a read on the way of a new
 * order: a line accepted here meets the existing order on the reference's unique index when it
 * is written (`commitLine`), and a refused one looks the reference up before the refusal is
 * answered.
 */
export function placeOrder(ctx: AppContext, actor: SellerActor, body: OrderBody, facts: RequestFacts) {
  return prepareAndCommit(ctx, async (speculate) => {
    const prepared = await prepareNewOrder(ctx, actor, body, facts, speculate);
    if (!isApiError(prepared)) return prepared;
    const existing = await findByReference(ctx, actor, body.orderReference);
    if (existing) return { replay: await replayOrConflict(ctx, existing, body) };
    throw prepared;
  });
}

/**
 * Prepares a line and commits it (`commitLine`). On PostgreSQL it is first quoted on the cached
 * catalog without reading its version: the order's write proves it, and a line it cannot prove
 * is prepared again, reading the version.
 */
export async function prepareAndCommit(
  ctx: AppContext,
  prepare: (speculate: boolean) => Promise<Prepared>,
): Promise<CommittedLine> {
  if (writesProveReads(ctx.db)) {
    const committed = await commitIfProven(ctx, await prepare(true));
    if (committed !== 'unproven') return committed;
  }
  return commitLine(ctx, await prepare(false));
}
