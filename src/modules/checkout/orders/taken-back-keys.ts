import type { Executor } from '../../../db/database.js';
import { takenBackRows } from './orders.repo.js';

/**
 * The keys of these orders a refund, chargeback or `POST /keys/return` took back, or a
 * replacement swapped (docs/after-sale.md), by order. A taken-back key is never answered again
 * in plaintext (docs/checkout.md, "Replays"): replays name it in `refundedKeyIds` instead.
 */
export async function takenBackKeys(ex: Executor, orderIds: readonly string[]) {
  const byOrder = new Map<string, Set<string>>();
  if (orderIds.length === 0) return byOrder;
  for (const { order_id, key_id } of await takenBackRows(ex, orderIds)) {
    const keys = byOrder.get(order_id) ?? new Set<string>();
    keys.add(key_id);
    byOrder.set(order_id, keys);
  }
  return byOrder;
}

interface KeyView {
  orderId: string;
  keys?: unknown[];
  keyIds: string[];
  refundedKeyIds?: string[];
  recovered?: number;
}

const isKeyView = (v: unknown): v is KeyView =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as KeyView).orderId === 'string' &&
  Array.isArray((v as KeyView).keyIds);

/** The order views of a stored reply: `data` (one order) or `data.items[].data` (a bulk cart). */
function keyViewsOf(body: unknown): KeyView[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (isKeyView(data)) return [data];
  const items = (data as { items?: unknown } | undefined)?.items;
  if (!Array.isArray(items)) return [];
  return items.map((item) => (item as { data?: unknown } | null)?.data).filter(isKeyView);
}

/**
 * A stored reply replayed by `Idempotency-Key` (POST /orders, /orders/bulk, /orders/commit,
 * /keys/pull, /orders/recover-keys, /orders/{id}/fulfill) as it would be answered now: keys
 * taken back since it was stored leave `keys` and `keyIds` and are named in `refundedKeyIds`.
 * Any other reply comes back unchanged, without a read.
 */
export async function replayWithoutTakenBackKeys(ex: Executor, text: string): Promise<string> {
  if (!text.includes('"keyIds"')) return text;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  const views = keyViewsOf(body).filter((v) => v.keyIds.length > 0);
  if (views.length === 0) return text;
  const takenBack = await takenBackKeys(ex, [...new Set(views.map((v) => v.orderId))]);
  if (takenBack.size === 0) return text;
  for (const view of views) {
    const gone = takenBack.get(view.orderId);
    if (!gone) continue;
    const keep = view.keyIds.map((id) => !gone.has(id));
    if (Array.isArray(view.keys)) {
      // Plaintext pairs with keyIds by position; without a pair for each, none is answered.
      view.keys = view.keys.length === view.keyIds.length ? view.keys.filter((_, i) => keep[i]) : [];
    }
    view.keyIds = view.keyIds.filter((_, i) => keep[i]);
    view.refundedKeyIds = [...gone].sort();
    if (typeof view.recovered === 'number') view.recovered = view.keyIds.length;
  }
  return JSON.stringify(body);
}
