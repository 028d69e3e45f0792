import type { AppContext } from '../../context.js';
import { heavyReader } from '../../db/replica.js';
import { type CursorKey, page } from '../../http/pagination.js';
import type { ActivityFilter } from './activity.repo.js';
import { listActivity } from './activity.repo.js';
import { activityView } from './activity.service.js';
import type { ActivityKind } from './finance.table.js';

/** The kinds that move keys and wholesale value (a keyless reveal moves neither). */
export const LEDGER_KINDS: readonly ActivityKind[] = ['sale', 'pull', 'refund', 'chargeback'];

/**
 * GET /transactions: the wholesale ledger, one row per key movement (API sale, custody pull,
 * refund, chargeback), newest first. `keys` and `wholesaleMinor` are signed: what the seller
 * took is positive, what went back is negative; summing a span gives keys held and wholesale
 * owed per currency. Built on the activity entries, so it never disagrees with GET /activity.
 */
export async function transactionsPage(
  ctx: AppContext,
  filter: Omit<ActivityFilter, 'kinds'>,
  limit: number,
  urlFor: (cursor: string) => string,
) {
  const rows = await listActivity(
    await heavyReader(ctx, filter.sellerId),
    { ...filter, kinds: LEDGER_KINDS },
    limit + 1,
  );
  const paged = page(rows, limit, (r): CursorKey => [Number(r.created_at), r.id], urlFor);
  return {
    data: paged.data.map((row) => {
      const entry = activityView(row);
      return {
        transactionId: entry.entryId,
        kind: entry.kind,
        orderId: entry.orderId,
        orderReference: entry.orderReference,
        skuCode: entry.skuCode,
        keys: entry.sign * entry.quantity,
        counterpartyCompanyId: entry.counterparty.companyId,
        wholesaleMinor: entry.economics.signedWholesaleMinor,
        wholesaleCurrencyCode: entry.economics.wholesaleCurrencyCode,
        createdAt: entry.createdAt,
      };
    }),
    meta: paged.meta,
  };
}
