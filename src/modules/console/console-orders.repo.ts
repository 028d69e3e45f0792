import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/** The console's reads of an order's keys: found by a key's code, and what after-sale did to them. */

/**
 * Keys of these fingerprints sold to the seller's orders (either environment), with their order:
 * the unique fingerprint index first, then those orders by id. Two reads rather than a join, so
 * that no planner starts from the seller's orders (a million of them) instead of the key.
 */
export async function soldKeysByFingerprint(ex: Executor, sellerId: string, fingerprints: string[]) {
  const keys = await ex
    .selectFrom('game_keys')
    .select(['fingerprint', 'id', 'order_id'])
    .where('fingerprint', 'in', fingerprints)
    .where('order_id', 'is not', null)
    .execute();
  if (keys.length === 0) return [];
  const orders = await ex
    .selectFrom('orders')
    .select(['id', 'readable_id', 'order_reference', 'environment'])
    .where(
      'id',
      'in',
      keys.map((key) => key.order_id!),
    )
    .where('seller_company_id', '=', sellerId)
    .execute();
  return keys.flatMap((key) => {
    const order = orders.find((o) => o.id === key.order_id);
    return order ? [{ ...order, fingerprint: key.fingerprint, keyId: key.id }] : [];
  });
}

/** Keys refunds, chargebacks and returns took back, per order and cause (reinstated ones not). */
export const keysTakenBackPerOrder = (ex: Executor, orderIds: string[]) =>
  ex
    .selectFrom('refund_keys')
    .select(['order_id', 'cause', sql<number>`count(*)`.as('keys')])
    .where('order_id', 'in', orderIds)
    .where('reinstated_at', 'is', null)
    .groupBy(['order_id', 'cause'])
    .execute();

/** Keys swapped for new ones, per order. */
export const keysReplacedPerOrder = (ex: Executor, orderIds: string[]) =>
  ex
    .selectFrom('key_replacements')
    .select(['order_id', sql<number>`count(*)`.as('keys')])
    .where('order_id', 'in', orderIds)
    .groupBy('order_id')
    .execute();

/** An order's keys by id and state (never their ciphertext), in id order. */
export const keyStatesOfOrder = (ex: Executor, orderId: string) =>
  ex.selectFrom('game_keys').select(['id', 'state']).where('order_id', '=', orderId).orderBy('id').execute();

/** The order's keys taken back and not reinstated, each with its cause. */
export const keysTakenBackOfOrder = (ex: Executor, orderId: string) =>
  ex
    .selectFrom('refund_keys')
    .select(['key_id', 'cause'])
    .where('order_id', '=', orderId)
    .where('reinstated_at', 'is', null)
    .execute();

/** The order's replaced keys and the keys that replaced them. */
export const replacementsOfOrder = (ex: Executor, orderId: string) =>
  ex
    .selectFrom('key_replacements')
    .select(['replaced_key_id', 'key_id'])
    .where('order_id', '=', orderId)
    .execute();

/** The seller's checkout hold, by id. */
export const holdOfSeller = (ex: Executor, sellerId: string, holdId: string) =>
  ex
    .selectFrom('checkout_holds')
    .select(['id', 'status', 'quantity', 'expires_at', 'created_at'])
    .where('id', '=', holdId)
    .where('seller_company_id', '=', sellerId)
    .executeTakeFirst();

/**
 * Up to `limit` broadcast events of the scope created since `sinceUs` whose payload contains
 * `needle` (matched literally), in the order they were written.
 */
export function eventsMentioning(
  ex: Executor,
  scope: { companyId: string; environment: string },
  sinceUs: number,
  needle: string,
  limit: number,
) {
  const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return ex
    .selectFrom('outbox_events')
    .select(['event_id', 'event_type', 'payload', 'created_at_us'])
    .where('company_id', '=', scope.companyId)
    .where('environment', '=', scope.environment)
    .where('created_at_us', '>=', sinceUs)
    .where('target_endpoint_id', 'is', null)
    .where(sql<boolean>`${sql.ref('payload')} like ${pattern} escape '\\'`)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** The webhook deliveries of these events. */
export const deliveriesOfEvents = (ex: Executor, eventIds: string[]) =>
  ex
    .selectFrom('webhook_deliveries')
    .select(['event_id', 'endpoint_id', 'status', 'attempts', 'last_status_code', 'last_error'])
    .where('event_id', 'in', eventIds)
    .execute();
