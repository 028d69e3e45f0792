import type { Insertable, Selectable, Transaction, Updateable } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { lockRows } from '../../db/dialect.js';
import type {
  EditionsTable,
  ProductRelationsTable,
  ProductsTable,
  ReleasesTable,
  SkusTable,
  TerritoryPricesTable,
} from './catalog.table.js';

export type ProductRow = Selectable<ProductsTable>;
export type ReleaseRow = Selectable<ReleasesTable>;
export type SkuRow = Selectable<SkusTable>;

export async function insertProduct(ex: Executor, row: Insertable<ProductsTable>): Promise<void> {
  await ex.insertInto('products').values(row).execute();
}

export function findProduct(ex: Executor, id: string): Promise<ProductRow | undefined> {
  return ex.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Products whose scheduled archive is due and not yet applied, oldest due first. */
export function productsDueForArchive(ex: Executor, nowMs: number, limit: number) {
  return ex
    .selectFrom('products')
    .select('id')
    .where('is_archived', '=', 0)
    .where('archive_at', 'is not', null)
    .where('archive_at', '<=', nowMs)
    .orderBy('archive_at')
    .limit(limit)
    .execute();
}

/** The product, locked until the transaction ends. */
export function lockProduct(trx: Transaction<Database>, id: string): Promise<ProductRow | undefined> {
  return lockRows(trx, trx.selectFrom('products').selectAll().where('id', '=', id)).executeTakeFirst();
}

export async function updateProduct(
  ex: Executor,
  id: string,
  patch: Updateable<ProductsTable>,
): Promise<void> {
  await ex.updateTable('products').set(patch).where('id', '=', id).execute();
}

export async function insertEdition(ex: Executor, row: Insertable<EditionsTable>): Promise<void> {
  await ex.insertInto('editions').values(row).execute();
}

export function findEdition(ex: Executor, id: string) {
  return ex.selectFrom('editions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertRelation(ex: Executor, row: Insertable<ProductRelationsTable>): Promise<void> {
  await ex
    .insertInto('product_relations')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function insertRelease(ex: Executor, row: Insertable<ReleasesTable>): Promise<void> {
  await ex.insertInto('releases').values(row).execute();
}

export function findRelease(ex: Executor, id: string): Promise<ReleaseRow | undefined> {
  return ex.selectFrom('releases').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateRelease(
  ex: Executor,
  id: string,
  patch: Updateable<ReleasesTable>,
): Promise<void> {
  await ex.updateTable('releases').set(patch).where('id', '=', id).execute();
}

export async function insertSku(ex: Executor, row: Insertable<SkusTable>): Promise<void> {
  await ex.insertInto('skus').values(row).execute();
}

export function findSku(ex: Executor, id: string): Promise<SkuRow | undefined> {
  return ex.selectFrom('skus').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findSkuByCode(ex: Executor, code: string): Promise<SkuRow | undefined> {
  return ex.selectFrom('skus').selectAll().where('code', '=', code).executeTakeFirst();
}

export function skusOfRelease(ex: Executor, releaseId: string): Promise<SkuRow[]> {
  return ex.selectFrom('skus').selectAll().where('release_id', '=', releaseId).orderBy('code').execute();
}

export function skusOfProduct(ex: Executor, productId: string): Promise<SkuRow[]> {
  return ex.selectFrom('skus').selectAll().where('product_id', '=', productId).orderBy('code').execute();
}

export async function updateSku(ex: Executor, id: string, patch: Updateable<SkusTable>): Promise<void> {
  await ex.updateTable('skus').set(patch).where('id', '=', id).execute();
}

export async function insertPrice(ex: Executor, row: Insertable<TerritoryPricesTable>): Promise<void> {
  await ex.insertInto('territory_prices').values(row).execute();
}

export async function upsertReferenceRate(
  ex: Executor,
  currencyCode: string,
  unitsPerUsd: string,
  at: number,
) {
  await ex
    .insertInto('reference_rates')
    .values({ currency_code: currencyCode, units_per_usd: unitsPerUsd, updated_at: at })
    .onConflict((oc) =>
      oc.column('currency_code').doUpdateSet({ units_per_usd: unitsPerUsd, updated_at: at }),
    )
    .execute();
}
