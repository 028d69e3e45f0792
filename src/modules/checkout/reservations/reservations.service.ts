import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../../context.js';
import { writesProveReads } from '../../../db/guarded-writes.js';
import { fail } from '../../../http/errors.js';
import { isoOf } from '../../../lib/clock.js';
import { uuidv7 } from '../../../lib/ids.js';
import type { HoldBody } from '../checkout.schemas.js';
import type { PriceQuote } from '../line/price-quote.js';
import type { Quote, SellerActor } from '../line/quote.js';
import { quoteLine } from '../line/quote.service.js';
import { slotStoreOf } from './admission-store.js';
import { refill, refillUnderWay, topUpWhenLow, trackRefill } from './refill.js';
import type { ReservationsTable } from './reservations.table.js';
import { type SlotStore, slotsLeft, type Taken } from './slot-store.js';
import { recordReservationRow, writeReservation } from './write-reservation.js';

/** A reservation lives about 60 seconds, and may be extended once by as much again. */
export const RESERVATION_TTL_MS = 60_000;

export type ReserveBody = Omit<Static<typeof HoldBody>, 'ttlSeconds'>;

function rowOf(actor: SellerActor, body: ReserveBody, quote: Quote, now: number): ReservationsTable {
  const { skuCode: _sku, quantity: _q, orderReference: _ref, ...line } = body;
  return {
    id: uuidv7(now),
    seller_company_id: actor.sellerId,
    environment: actor.environment,
    api_key_id: actor.apiKeyId,
    allocation_id: quote.allocation.id,
    sku_code: quote.sku.code,
    quantity: body.quantity,
    order_reference: body.orderReference,
    line: JSON.stringify({
      ...line,
      countryCode: quote.country,
      currencyCode: quote.currency,
      // The price the reservation binds (docs/hot-drops.md): the expectedUnitPriceCents sent
      // (the quote proved it equal to the effective price) or the effective price quoted now.
      reservedPrice: quote.price,
    }),
    slot: null as number | null,
    status: 'live' as const,
    extended: 0,
    expires_at: now + RESERVATION_TTL_MS,
    created_at: now,
    updated_at: now,
  };
}

/** The price a stored reservation bound, if it was made by a release that binds one. */
export const reservedPriceOfRow = (row: { line: string }): PriceQuote | undefined =>
  (JSON.parse(row.line) as { reservedPrice?: PriceQuote }).reservedPrice;

/**
 * POST /orders/reserve: the hold's gates (`quoteLine`), then admission. The fast
 * path takes free carved units from the store and writes the reservation; when the store has
 * none, `refill` carves more under the grant's lock or answers SOLD_OUT.
 */
export async function reserve(ctx: AppContext, actor: SellerActor, body: ReserveBody) {
  // PostgreSQL: quoted on the cached catalog without reading its version; the admission
  // statements prove it, and a reservation they cannot prove is quoted again, reading it.
  const store = slotStoreOf(ctx);
  const attempt = async (speculate: boolean) => {
    const quote = await quoteReservation(ctx, actor, body, speculate);
    const row = rowOf(actor, body, quote, ctx.clock.now());
    const taken = await admitOrRefill(ctx, store, actor, quote, row);
    return taken === 'unproven' ? taken : answer(row, taken);
  };
  if (writesProveReads(ctx.db)) {
    const answered = await attempt(true);
    if (answered !== 'unproven') return answered;
  }
  const answered = await attempt(false);
  if (answered === 'unproven') throw new Error('a reservation quoted on the version it read was unproven');
  return answered;
}

/** The hold's gates, then hot-drop mode and the per-reservation maximum (`quoteLine`). */
const quoteReservation = (ctx: AppContext, actor: SellerActor, body: ReserveBody, speculate: boolean) =>
  quoteLine(ctx, actor, body, 'hold', {
    speculate,
    gate: (quote) => reservableRefusal(quote, body.quantity),
  });

/** Why the quoted line cannot be reserved, or null when it can. */
function reservableRefusal({ allocation, sku, price, currency }: Quote, quantity: number) {
  if (price.unitPriceCents === null) {
    // A secondary-currency sale has no catalog price to quote: it names its price here, since
    // the commit has no field for one.
    return fail(
      'EXPECTED_UNIT_PRICE_REQUIRED',
      `The catalog has no ${currency} price to bind: send expectedUnitPriceCents with the reservation.`,
      { currencyCode: currency, unitPriceCents: null },
    );
  }
  if (allocation.hot_drop !== 1) {
    return fail('HOT_DROP_NOT_ENABLED', `The allocation on ${sku.code} is not in hot-drop mode.`, {
      allocationId: allocation.id,
      recommendedAction: 'use_checkout_hold_or_post_orders',
    });
  }
  if (quantity > allocation.reservation_max_quantity) {
    return fail(
      'QUANTITY_INVALID',
      `A reservation takes at most ${allocation.reservation_max_quantity} keys.`,
      {
        requested: quantity,
        maximum: allocation.reservation_max_quantity,
      },
    );
  }
  return null;
}

function answer(row: ReservationsTable, taken: Taken) {
  const price = reservedPriceOfRow(row);
  return {
    type: 'reservation' as const,
    reservationId: row.id,
    allocationId: row.allocation_id,
    skuCode: row.sku_code,
    quantity: row.quantity,
    expiresAt: isoOf(row.expires_at),
    expiresInSeconds: Math.round(RESERVATION_TTL_MS / 1000),
    remainingSlots: Math.max(0, slotsLeft(taken)),
    orderReference: row.order_reference,
    unitPriceCents: price?.unitPriceCents ?? null,
    currencyCode: price?.currencyCode ?? null,
  };
}

/** Refills a request waits out before it refills itself (a bound, against losing every race). */
const MAX_WAITS = 3;

/**
 * The fast path, else a refill. One refill of an allocation runs at a time in a process: a
 * request that finds the store empty while one runs waits for it and takes again, instead of
 * queueing on the grant's row lock and taking its units there, one locked transaction after
 * another (measured on PostgreSQL, 32 connections: that queue set the rate and the p99). A
 * take that leaves the store low starts a top-up in the background (`topUpWhenLow`), so that
 * under steady demand the store does not run dry and no request waits for a refill.
 * `'unproven'` when the quote's catalog version moved (see `writeReservation`): nothing written.
 */
async function admitOrRefill(
  ctx: AppContext,
  store: SlotStore,
  actor: SellerActor,
  quote: Quote,
  row: ReservationsTable,
): Promise<Taken | 'unproven'> {
  for (let waits = 0; ; waits++) {
    const taken = await writeReservation(ctx, store, actor, quote, row);
    if (taken === 'unproven') return taken;
    if (taken) {
      topUpWhenLow(ctx, store, quote, taken);
      return taken;
    }
    const running = refillUnderWay(ctx, row.allocation_id);
    if (running && waits < MAX_WAITS) {
      await running.catch(() => undefined);
      continue;
    }
    const mine = refill(ctx, store, quote, row, (trx) => recordReservationRow(ctx, trx, actor, row));
    trackRefill(ctx, row.allocation_id, mine);
    return mine;
  }
}
