import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import { PREORDER_CONVERSION_JOB, wakeJobAtCommit } from '../../jobs/notify-job.repo.js';
import { uuidv7 } from '../../lib/ids.js';
import { getCompany } from '../companies/index.js';
import type { ChangedField } from '../events/index.js';
import { emit } from '../events/index.js';
import * as repo from './catalog.repo.js';
import type { LaunchPhase, ProductStatus, RelationType, TradingState } from './catalog.table.js';
import { changeProduct } from './catalog-changes.service.js';

export interface ProductInput {
  name: string;
  slug: string;
  shortDescription?: Record<string, string>;
  status?: ProductStatus;
  launchPhase?: LaunchPhase;
  tradingState?: TradingState;
  preorderEnabled?: boolean;
  preorderStart?: number | null;
  preorderEnd?: number | null;
  cover?: Record<string, unknown> | null;
  platforms?: unknown[];
  regions?: unknown[];
  churnPeriodHours?: number | null;
}

export type ProductPatch = Partial<ProductInput> & { isArchived?: boolean; archiveAt?: number | null };

const METADATA_FIELDS = ['name', 'slug', 'shortDescription', 'cover', 'platforms', 'regions'] as const;
const AVAILABILITY_FIELDS = [
  'status',
  'launchPhase',
  'tradingState',
  'preorderEnabled',
  'preorderStart',
  'preorderEnd',
  'isArchived',
] as const;

export async function requireProduct(ex: Executor, id: string): Promise<repo.ProductRow> {
  const product = await repo.findProduct(ex, id);
  if (!product) throw fail('NOT_FOUND', `No product ${id}.`);
  return product;
}

export async function createProduct(
  ctx: AppContext,
  trx: Executor,
  publisherId: string,
  environment: string,
  input: ProductInput,
) {
  const publisher = await getCompany(ctx, publisherId, trx);
  if (publisher?.kind !== 'publisher') throw fail('NOT_FOUND', `No publisher company ${publisherId}.`);
  const now = ctx.clock.now();
  const id = uuidv7(now);
  const description = input.shortDescription ?? { en: '' };
  if (!description.en) description.en = Object.values(description)[0] ?? '';
  await changeProduct(ctx, trx, { id, environment }, [], () =>
    repo.insertProduct(trx, {
      id,
      publisher_company_id: publisherId,
      environment,
      name: input.name,
      slug: input.slug,
      short_description: JSON.stringify(description),
      status: input.status ?? 'draft',
      launch_phase: input.launchPhase ?? 'released',
      trading_state: input.tradingState ?? 'trading',
      preorder_enabled: input.preorderEnabled ? 1 : 0,
      preorder_start: input.preorderStart ?? null,
      preorder_end: input.preorderEnd ?? null,
      archive_at: null,
      cover: input.cover ? JSON.stringify(input.cover) : null,
      platforms: JSON.stringify(input.platforms ?? []),
      regions: JSON.stringify(input.regions ?? []),
      churn_period_hours: input.churnPeriodHours ?? null,
      created_at: now,
      updated_at: now,
    }),
  );
  return requireProduct(trx, id);
}

function changedFieldsOf(patch: ProductPatch): ChangedField[] {
  const fields: ChangedField[] = [];
  if (METADATA_FIELDS.some((f) => patch[f] !== undefined)) fields.push('metadata');
  if (AVAILABILITY_FIELDS.some((f) => patch[f] !== undefined)) fields.push('availability');
  return fields;
}

/**
 * Edits a product and tells sellers: catalog change rows, `product.updated`, and on archive
 * `product.delisted` (immediate) or `product.delisting_scheduled` (a future archiveAt).
 */
export async function updateProduct(ctx: AppContext, trx: Executor, id: string, patch: ProductPatch) {
  const product = await requireProduct(trx, id);
  const now = ctx.clock.now();
  const scheduled = patch.archiveAt != null && patch.archiveAt > now;
  const archiveNow = patch.isArchived === true || (patch.archiveAt != null && patch.archiveAt <= now);
  const fields = changedFieldsOf({ ...patch, ...(archiveNow ? { isArchived: true } : {}) });
  const diff = await changeProduct(ctx, trx, product, fields, () =>
    repo.updateProduct(trx, id, {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.slug !== undefined ? { slug: patch.slug } : {}),
      ...(patch.shortDescription !== undefined
        ? { short_description: JSON.stringify(patch.shortDescription) }
        : {}),
      ...(patch.status !== undefined ? { status: patch.status } : {}),
      ...(patch.launchPhase !== undefined ? { launch_phase: patch.launchPhase } : {}),
      ...(patch.tradingState !== undefined ? { trading_state: patch.tradingState } : {}),
      ...(patch.preorderEnabled !== undefined ? { preorder_enabled: patch.preorderEnabled ? 1 : 0 } : {}),
      ...(patch.preorderStart !== undefined ? { preorder_start: patch.preorderStart } : {}),
      ...(patch.preorderEnd !== undefined ? { preorder_end: patch.preorderEnd } : {}),
      ...(patch.cover !== undefined ? { cover: patch.cover ? JSON.stringify(patch.cover) : null } : {}),
      ...(patch.platforms !== undefined ? { platforms: JSON.stringify(patch.platforms) } : {}),
      ...(patch.regions !== undefined ? { regions: JSON.stringify(patch.regions) } : {}),
      ...(patch.isArchived === false ? { is_archived: 0, archive_at: null } : {}),
      ...(archiveNow ? { is_archived: 1, archive_at: patch.archiveAt ?? now } : {}),
      ...(scheduled ? { archive_at: patch.archiveAt } : {}),
      updated_at: now,
    }),
  );
  const updatedAt = new Date(now).toISOString();
  // The legacy status `archived` delists as `isArchived` does (archiving records `removed`).
  if (archiveNow || patch.status === 'archived') {
    await emit(ctx, trx, diff.removed, 'product.delisted', {
      productId: id,
      delistedAt: updatedAt,
    });
  } else {
    await emit(ctx, trx, [...diff.kept, ...diff.added], 'product.updated', {
      productId: id,
      updatedAt,
    });
  }
  if (scheduled) {
    await emit(ctx, trx, diff.kept, 'product.delisting_scheduled', {
      productId: id,
      effectiveAt: new Date(patch.archiveAt!).toISOString(),
    });
  }
  if (patch.launchPhase === 'released' && product.launch_phase !== 'released')
    await wakeJobAtCommit(trx, PREORDER_CONVERSION_JOB);
  if (fields.includes('availability'))
    await ctx.grants.refreshForPublisher(
      trx,
      product.publisher_company_id,
      product.environment,
      await skuIdsOf(trx, id),
    );
  return requireProduct(trx, id);
}

/**
 * Applies archives whose scheduled `archiveAt` has come (the server runs this every minute):
 * each product in its own transaction, locked and re-read there, so processes sweeping at once
 * archive it once, with one `removed` change and one `product.delisted` per seller that saw it.
 */
export async function archiveDueProducts(ctx: AppContext, batch = 100): Promise<number> {
  const now = ctx.clock.now();
  let archived = 0;
  for (;;) {
    const due = await repo.productsDueForArchive(ctx.db, now, batch);
    for (const { id } of due) {
      const done = await ctx.db.transaction().execute(async (trx) => {
        const product = await repo.lockProduct(trx, id);
        if (
          !product ||
          product.is_archived === 1 ||
          product.archive_at === null ||
          product.archive_at > now
        ) {
          return false;
        }
        await updateProduct(ctx, trx, id, { archiveAt: product.archive_at });
        return true;
      });
      if (done) archived++;
    }
    // Every row read is archived now (here or by another sweeper): the next read starts after them.
    if (due.length < batch) return archived;
  }
}

export const skuIdsOf = async (ex: Executor, productId: string) =>
  (await repo.skusOfProduct(ex, productId)).map((s) => s.id);

/** Marks a product changed (updatedAt) after an edit to its releases, SKUs or prices. */
export async function touchProduct(trx: Executor, productId: string, at: number): Promise<void> {
  await repo.updateProduct(trx, productId, { updated_at: at });
}

export async function createEdition(ctx: AppContext, trx: Executor, productId: string, name: string) {
  const product = await requireProduct(trx, productId);
  const now = ctx.clock.now();
  const id = uuidv7(now);
  await changeProduct(ctx, trx, product, ['metadata'], async () => {
    await repo.insertEdition(trx, { id, product_id: productId, name, created_at: now, updated_at: now });
    await touchProduct(trx, productId, now);
  });
  return { id, productId, name };
}

export async function relateProducts(
  ctx: AppContext,
  trx: Executor,
  productId: string,
  type: RelationType,
  targetId: string,
) {
  const product = await requireProduct(trx, productId);
  const target = await requireProduct(trx, targetId);
  if (target.environment !== product.environment)
    throw fail('VALIDATION_FAILED', 'Related products must share an environment.');
  await changeProduct(ctx, trx, product, ['relationships'], async () => {
    await repo.insertRelation(trx, { product_id: productId, type, target_product_id: targetId });
    await touchProduct(trx, productId, ctx.clock.now());
  });
  return { productId, type, targetProductId: targetId };
}
