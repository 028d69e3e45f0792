import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { CompanyKind } from '../companies/index.js';

/** Keyset position of the operator lists, newest first: `[created_at, id]` of the last row served. */
export type Position = readonly [number, string];

export const positionOf = (row: { created_at: number; id: string }): Position => [row.created_at, row.id];

/** Rows after `position` in (created_at, id) descending order: a row-value comparison on both engines. */
const olderThan = (table: string, [at, id]: Position) =>
  sql<boolean>`(${sql.ref(`${table}.created_at`)}, ${sql.ref(`${table}.id`)}) < (${at}, ${id})`;

export interface Window {
  after: Position | null;
  /** Rows to read: one more than the page, to know whether another page exists. */
  take: number;
}

export function listCompanies(ex: Executor, filter: { kind?: CompanyKind; country?: string }, w: Window) {
  let query = ex.selectFrom('companies').selectAll();
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.country) query = query.where('country', '=', filter.country);
  if (w.after) query = query.where(olderThan('companies', w.after));
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(w.take).execute();
}

export function listPools(
  ex: Executor,
  filter: { skuId?: string; skuCode?: string; environment?: string },
  w: Window,
) {
  let query = ex
    .selectFrom('key_pools')
    .innerJoin('skus', 'skus.id', 'key_pools.sku_id')
    .selectAll('key_pools')
    .select('skus.code as sku_code');
  if (filter.skuId) query = query.where('key_pools.sku_id', '=', filter.skuId);
  if (filter.skuCode) query = query.where('skus.code', '=', filter.skuCode);
  if (filter.environment) query = query.where('key_pools.environment', '=', filter.environment);
  if (w.after) query = query.where(olderThan('key_pools', w.after));
  return query
    .orderBy('key_pools.created_at', 'desc')
    .orderBy('key_pools.id', 'desc')
    .limit(w.take)
    .execute();
}

export function listAllocations(
  ex: Executor,
  filter: { sellerCompanyId: string; environment?: string; status?: string },
  w: Window,
) {
  let query = ex
    .selectFrom('allocations')
    .innerJoin('skus', 'skus.id', 'allocations.sku_id')
    .selectAll('allocations')
    .select('skus.code as sku_code')
    .where('allocations.seller_company_id', '=', filter.sellerCompanyId);
  if (filter.environment) query = query.where('allocations.environment', '=', filter.environment);
  if (filter.status) query = query.where('allocations.status', '=', filter.status as 'active');
  if (w.after) query = query.where(olderThan('allocations', w.after));
  return query
    .orderBy('allocations.created_at', 'desc')
    .orderBy('allocations.id', 'desc')
    .limit(w.take)
    .execute();
}

export function listApiKeys(
  ex: Executor,
  filter: { companyId: string; environment?: string; includeRevoked: boolean },
  w: Window,
) {
  let query = ex.selectFrom('api_keys').selectAll().where('company_id', '=', filter.companyId);
  if (filter.environment) query = query.where('environment', '=', filter.environment as 'sandbox');
  if (!filter.includeRevoked) query = query.where('revoked_at', 'is', null);
  if (w.after) query = query.where(olderThan('api_keys', w.after));
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(w.take).execute();
}
