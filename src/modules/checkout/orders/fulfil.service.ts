import type { AppContext } from '../../../context.js';
import type { Executor } from '../../../db/database.js';
import { lastStatementEnds } from '../../../db/guarded-writes.js';
import { fail } from '../../../http/errors.js';
import { fenceClaim } from '../../../http/idempotency/claim-fence.js';
import { readableId, uuidv7 } from '../../../lib/ids.js';
import {
  pullEvents,
  pullReserved,
  pullUnlessPromised,
  recordPromise,
  recordPull,
  remainingOf,
  requireAllocation,
} from '../../allocations/index.js';
import { emitEventList, type PendingEvent } from '../../events/index.js';
import { recordActivity, recordSale, type SaleRecord } from '../../finance/index.js';
import { spendAttestation } from '../../geo-attest/index.js';
import { type ClaimedKey, claimKeys, openKeys, stockUpTo } from '../../inventory/index.js';
import { endLiveHold, findHold } from '../holds/holds.repo.js';
import { type HoldOutcome, holdOutcome } from '../holds/holds.service.js';
import { forgetLiveReads } from '../line/hot-reads.js';
import { promisedOnAllocation } from '../line/promised-capacity.repo.js';
import type { Quote, SellerActor } from '../line/quote.js';
import { issueLink, linkUrl } from '../redemption/links.js';
import { type ConsumedReservation, consumeReservation, consumeReserved } from '../reservations/consume.js';
import { pullAndEmitLast } from './fast-commit.pg.js';
import type { FulfilRequest } from './fulfil-request.js';
import * as repo from './orders.repo.js';

/** How long a keyless redemption record stays redeemable. */
export const REDEMPTION_TTL_MS = 30 * 24 * 3_600_000;
const WEBHOOK_DELAY_MS = 30_000;

export interface Fulfilment {
  order: repo.OrderRow;
  keys: ClaimedKey[];
  /** Plaintext, in `keys` order; empty unless the keys travel in the response. */
  plaintext: string[];
  hold: HoldOutcome | null;
  redemption: { fulfillmentId: string; expiresAt: number; url: string | null } | null;
}

/** Sandboxed order references are per API key, production ones per company. */
export const referenceOwner = (actor: SellerActor) =>
  actor.environment === 'sandbox' ? actor.apiKeyId : actor.sellerId;

const notEnough = (skuCode: string, requested: number, available: number) =>
  fail(
    'NO_AVAILABLE_KEYS',
    `Only ${available} of ${requested} keys of ${skuCode} can be pulled; none were.`,
    {
      skuCode,
      requested,
      available: Math.max(0, available),
    },
  );

/**
 * One fulfilment, inside the caller's transaction. First the request's claim is fenced
 * (claim-fence.ts), then the work that needs no lock on the grant (`writeBeforeGrant`), then
 * the grant, touched once and last (see `commitToAllocation`), and the order's events in one
 * insert. The grant's row lock is held from that statement to the commit only. Any failure
 * rolls all of it back, keys included.
 */
export async function fulfil(ctx: AppContext, trx: Executor, req: FulfilRequest): Promise<Fulfilment> {
  const written = await writeBeforeGrant(ctx, trx, req);
  return commitOnGrant(ctx, trx, req, written);
}

/**
 * One fulfilment as the whole of a transaction of its own (`inOwnTransaction`). On PostgreSQL a
 * plain order with nothing promised ends it with the grant's guarded counter update and its
 * events (fast-commit.pg.ts), the COMMIT queued behind: null when that update misses (the grant
 * moved since the quote read it), the transaction then rolled back with nothing written.
 */
export async function fulfilEndingTransaction(
  ctx: AppContext,
  trx: Executor,
  req: FulfilRequest,
): Promise<Fulfilment | null> {
  const written = await writeBeforeGrant(ctx, trx, req);
  if (!written.unpromised || !lastStatementEnds(trx)) {
    return commitOnGrant(ctx, trx, req, written);
  }
  const { fulfilment, now, deliverAfterMs } = written;
  const after = await pullAndEmitLast(ctx, trx, req, orderEvent(req, now), deliverAfterMs);
  return after ? fulfilment : null;
}

interface WrittenBeforeGrant {
  /** The fulfilment, but for the hold's outcome, which the grant's step decides. */
  fulfilment: Fulfilment;
  /** Nothing promised on the grant: the fast path's guarded update may take it. */
  unpromised: boolean;
  now: number;
  deliverAfterMs: number | undefined;
}

/**
 * Everything before the grant: fence the claim, write the order (a concurrent duplicate
 * reference waits on its unique index), claim the keys (SKIP LOCKED), open them, record the
 * sale and activity, open a keyless redemption.
 */
async function writeBeforeGrant(
  ctx: AppContext,
  trx: Executor,
  req: FulfilRequest,
): Promise<WrittenBeforeGrant> {
  const { quote, actor } = req;
  const now = ctx.clock.now();
  const order = orderRow(req, now);
  await fenceClaim(trx, req.claim);
  await repo.insertOrder(trx, order);
  if (req.attestId) await spendAttestation(trx, req.actor, req.attestId, req.orderReference, now);
  const unpromised = await nothingPromised(trx, req, order.id, now);

  let keys: ClaimedKey[] = [];
  if (req.delivery !== 'preorder') {
    keys = await claimKeys(ctx, trx, {
      allocationId: quote.allocation.id,
      skuId: quote.sku.id,
      skuCode: quote.sku.code,
      environment: actor.environment,
      orderId: order.id,
      quantity: req.quantity,
      pools: quote.pools,
    });
  }
  if (req.simulate === 'key_decrypt_failed') {
    throw fail('INTERNAL_ERROR', 'Simulated: a key could not be decrypted; nothing was pulled.', {
      reason: 'key_decrypt_failed',
      simulated: true,
    });
  }
  const plaintext = req.delivery === 'keys' ? openKeys(ctx, keys) : [];
  await recordFinance(trx, req, order.id, quote.allocation, now);
  const redemption = req.delivery === 'keyless' ? await openRedemption(ctx, trx, req, order.id, now) : null;
  const deliverAfterMs = req.simulate === 'webhook_delay_30s' ? now + WEBHOOK_DELAY_MS : undefined;
  return { fulfilment: { order, keys, plaintext, hold: null, redemption }, unpromised, now, deliverAfterMs };
}

/** The grant's step (fast, reserved fast, or locked), then the order's events and the grant's. */
async function commitOnGrant(
  ctx: AppContext,
  trx: Executor,
  req: FulfilRequest,
  { fulfilment, unpromised, now, deliverAfterMs }: WrittenBeforeGrant,
): Promise<Fulfilment> {
  const committed =
    (unpromised && (await pullFast(trx, req, now))) ||
    (req.reservation && (await pullReservedFast(trx, req, req.reservation, now))) ||
    (await commitToAllocation(ctx, trx, req, fulfilment.order.id, now));
  const delay = deliverAfterMs === undefined ? {} : { deliverAfterMs };
  await emitEventList(ctx, trx, [orderEvent(req, now), ...committed.events], delay);
  return { ...fulfilment, hold: committed.hold };
}

interface Committed {
  hold: HoldOutcome | null;
  /** The grant's events (`allocation.updated`, capacity), written after the order's own. */
  events: PendingEvent[];
}

/**
 * Whether a plain order may take the fast path: nothing promised on the grant (no live hold,
 * no accepted pre-order). A grant that never had a promise says so by `promise_version` 0 as
 * the quote read it, without a query; otherwise the promises are summed here, before any
 * lock, and the fast path's update proves that the version it read still holds.
 */
async function nothingPromised(trx: Executor, req: FulfilRequest, orderId: string, now: number) {
  if (req.holdId || req.reservation || req.delivery === 'preorder') return false;
  if (req.quote.allocation.promise_version === 0) return true;
  return (await promisedOnAllocation(trx, req.quote.allocation.id, now, { orderId })) === 0;
}

/**
 * The fast path: one conditional counter update (active, headroom, no promise since the quote
 * read the grant), the last statement before the events. Null when it does not apply: the
 * locked path then decides, with the exact refusal.
 */
async function pullFast(trx: Executor, req: FulfilRequest, now: number): Promise<Committed | null> {
  const { allocation, sku } = req.quote;
  const after = await pullUnlessPromised(trx, allocation.id, req.quantity, allocation.promise_version, now);
  return after ? { hold: null, events: pullEvents(after, sku.code, req.quantity) } : null;
}

/**
 * A commit's fast path: the conditional counter update (active, hot-drop mode, headroom), then
 * the reservation consumed. Null when the update does not apply: the locked path then decides,
 * with the exact refusal (409 when hot-drop mode was turned off, `NO_AVAILABLE_KEYS` when the
 * limit was lowered below it).
 */
async function pullReservedFast(
  trx: Executor,
  req: FulfilRequest,
  reservation: ConsumedReservation,
  now: number,
): Promise<Committed | null> {
  const { allocation, sku } = req.quote;
  const after = await pullReserved(trx, allocation.id, req.quantity, now);
  if (!after) return null;
  await consumeReserved(trx, allocation.id, reservation, now);
  return { hold: null, events: pullEvents(after, sku.code, req.quantity) };
}

/**
 * The locked path (a hold to consume, a pre-order, something promised, or a fast path that
 * did not apply): lock the grant, bound the quantity by the headroom left after what live
 * holds and pre-orders were promised, check that the stock left after this claim still covers
 * those promises, move the counter (a pre-order records its promise instead) and consume the hold.
 */
async function commitToAllocation(
  ctx: AppContext,
  trx: Executor,
  req: FulfilRequest,
  orderId: string,
  now: number,
): Promise<Committed> {
  const { quote } = req;
  // The grant moved since the quote read it (or this order moves it): the next quote reads it again.
  forgetLiveReads(ctx, req.actor.sellerId, req.actor.environment, quote.sku.id);
  const allocation = await requireAllocation(trx, quote.allocation.id, true);
  if (allocation.status !== 'active') {
    throw fail('ALLOCATION_NOT_AVAILABLE', `The allocation was ${allocation.status} while the order ran.`, {
      allocationId: allocation.id,
      status: allocation.status,
    });
  }
  if (req.reservation) {
    // Its units were carved for it, within headroom and stock, under this lock: it moves them
    // from carved to pulled, which leaves every other promise's bound as it was. Only what the
    // promise accounting does not see (a lowered limit, voided keys) can refuse it, here or at
    // the claim.
    await consumeReservation(trx, allocation, req.reservation, now);
    const headroom = remainingOf(allocation);
    if (req.quantity > headroom) throw notEnough(quote.sku.code, req.quantity, headroom);
    const after = await recordPull(trx, allocation, req.quantity, now);
    return { hold: null, events: pullEvents(after, quote.sku.code, req.quantity) };
  }
  const hold = req.holdId ? await findHold(trx, req.holdId, true) : undefined;
  const outcome = hold ? holdOutcome(hold, now) : null;
  const ownHold = outcome && !outcome.committedWithoutHold ? hold!.id : undefined;
  const promised = await promisedOnAllocation(trx, allocation.id, now, { holdId: ownHold, orderId });
  const headroom = remainingOf(allocation) - promised;
  if (req.quantity > headroom) throw notEnough(quote.sku.code, req.quantity, headroom);
  let events: PendingEvent[] = [];
  if (req.delivery === 'preorder') {
    await recordPromise(trx, allocation);
  } else {
    if (promised > 0) {
      const left = await stockUpTo(trx, quote.sku.id, allocation.environment, allocation.id, promised);
      if (left < promised) throw notEnough(quote.sku.code, req.quantity, req.quantity - (promised - left));
    }
    const after = await recordPull(trx, allocation, req.quantity, now);
    events = pullEvents(after, quote.sku.code, req.quantity);
  }
  if (ownHold) await endLiveHold(trx, ownHold, 'consumed', now);
  return { hold: outcome, events };
}

export function orderRow(req: FulfilRequest, now: number): repo.OrderRow {
  const { quote, actor } = req;
  const allocation = quote.allocation;
  return {
    id: uuidv7(now),
    readable_id: readableId('ord'),
    seller_company_id: actor.sellerId,
    environment: actor.environment,
    api_key_id: actor.apiKeyId,
    reference_owner: referenceOwner(actor),
    order_reference: req.orderReference,
    kind: req.kind,
    bulk_line: req.bulkLine ? 1 : 0,
    delivery: req.delivery,
    sku_id: quote.sku.id,
    sku_code: quote.sku.code,
    product_id: quote.sku.product_id,
    allocation_id: allocation.id,
    publisher_company_id: allocation.publisher_company_id,
    quantity: req.quantity,
    pulled: req.delivery === 'preorder' ? 0 : req.quantity,
    unit_price_cents: req.kind === 'order' ? quote.price.unitPriceCents : null,
    initial_unit_price_cents: req.kind === 'order' ? quote.price.initialUnitPriceCents : null,
    currency_code: quote.currency,
    country_code: quote.country,
    wholesale_unit_price_cents: allocation.price_per_key_cents,
    wholesale_currency_code: allocation.currency_code,
    promo: quote.price.promo ? JSON.stringify(quote.price.promo) : null,
    hold_id: req.holdId,
    reservation_id: req.reservation?.id ?? null,
    consumer_geo_attest_id: req.attestId ?? null,
    detected_country_code: quote.geo?.detectedCountryCode ?? null,
    country_mismatch: quote.geo?.countryMismatch ? 1 : 0,
    consumer_ip_hash: quote.geo?.consumerIpHash ?? null,
    integration_context: quote.storedContext ? JSON.stringify(quote.storedContext) : null,
    warnings: JSON.stringify(quote.warnings),
    contract_date: req.contractDate,
    revealed_at: req.delivery === 'keys' ? now : null,
    created_at: now,
    updated_at: now,
  };
}

async function recordFinance(
  trx: Executor,
  req: FulfilRequest,
  orderId: string,
  allocation: Quote['allocation'],
  now: number,
) {
  if (req.delivery === 'preorder') return;
  if (req.simulate === 'billing_record_failed') {
    throw fail('INTERNAL_ERROR', 'Simulated: the billing record could not be written; nothing was pulled.', {
      reason: 'billing_record_failed',
      simulated: true,
    });
  }
  const finance = financeOf(req, orderId, allocation, now);
  if (finance.sale) await recordSale(trx, finance.sale);
  else await recordActivity(trx, 'pull', finance.entry);
}

/**
 * What a fulfilment records in finance, as the quote judged it: a priced order its sale line
 * (with its activity entry), anything else a custody `pull` activity entry.
 */
export function financeOf(
  req: FulfilRequest,
  orderId: string,
  allocation: Pick<Quote['allocation'], 'publisher_company_id' | 'price_per_key_cents' | 'currency_code'>,
  now: number,
) {
  const { quote, actor } = req;
  const entry = {
    orderId,
    orderReference: req.orderReference,
    sellerId: actor.sellerId,
    environment: actor.environment,
    publisherId: allocation.publisher_company_id,
    skuId: quote.sku.id,
    skuCode: quote.sku.code,
    quantity: req.quantity,
    promo: quote.price.promo
      ? { sourceType: quote.price.promo.sourceType, sourceId: quote.price.promo.sourceId }
      : null,
    customerRegionCode: quote.country,
    detectedCountryCode: quote.geo?.detectedCountryCode ?? null,
    countryMismatch: quote.geo?.countryMismatch ?? false,
    evidenceRank: quote.geo?.evidenceRank ?? 3,
    currencyCode: quote.currency,
    wholesaleUnitCents: allocation.price_per_key_cents,
    wholesaleCurrencyCode: allocation.currency_code,
    at: now,
  };
  if (req.kind !== 'order' || quote.price.unitPriceCents === null) return { sale: null, entry };
  const sale: SaleRecord = {
    ...entry,
    unitPriceCents: quote.price.unitPriceCents,
    initialUnitPriceCents: quote.price.initialUnitPriceCents ?? quote.price.unitPriceCents,
    declaration: quote.storedContext,
    warnings: quote.warnings.map((w) => w.code),
    consumerIpHash: quote.geo?.consumerIpHash ?? null,
    settlement: quote.settlement ? { ...quote.settlement } : null,
  };
  return { sale, entry };
}

/** The keyless record and its link (links.ts): the buyer's URL goes back in this answer only. */
async function openRedemption(
  ctx: AppContext,
  trx: Executor,
  req: FulfilRequest,
  orderId: string,
  now: number,
) {
  const id = uuidv7(now);
  const expiresAt = now + REDEMPTION_TTL_MS;
  const link = issueLink(ctx);
  await repo.insertRedemption(trx, {
    id,
    seller_company_id: req.actor.sellerId,
    environment: req.actor.environment,
    order_id: orderId,
    order_reference: req.orderReference,
    sku_id: req.quote.sku.id,
    platform_code: req.quote.sku.platform,
    expires_at: expiresAt,
    expiring_notified_at: null,
    expired_notified_at: null,
    created_at: now,
    token_hash: link.token_hash,
    token_sealed: link.token_sealed,
    revoked_at: null,
    revealed_at: null,
  });
  return { fulfillmentId: id, expiresAt, url: linkUrl(ctx, link.token) };
}

/** The order's own event: `order.reserved`, `order.fulfilled` or `keys.pulled`. */
export function orderEvent(req: FulfilRequest, now: number): PendingEvent {
  const recipients = [{ companyId: req.actor.sellerId, environment: req.actor.environment }];
  const base = { orderReference: req.orderReference, skuCode: req.quote.sku.code };
  if (req.delivery === 'preorder') {
    const releaseAt = req.quote.preorder?.expectedReleaseAt ?? null;
    return {
      recipients,
      eventType: 'order.reserved',
      data: {
        ...base,
        quantity: req.quantity,
        expectedReleaseAt: releaseAt === null ? null : new Date(releaseAt).toISOString(),
      },
    };
  }
  if (req.kind === 'order') {
    return {
      recipients,
      eventType: 'order.fulfilled',
      data: {
        ...base,
        quantity: req.quantity,
        pulled: req.quantity,
        fulfilledAt: new Date(now).toISOString(),
      },
    };
  }
  return { recipients, eventType: 'keys.pulled', data: { ...base, pulled: req.quantity } };
}
