import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import { PREORDER_CONVERSION_JOB, wakeJobAtCommit } from '../../jobs/notify-job.repo.js';
import { isoOrNull } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import { emit } from '../events/index.js';
import * as repo from './catalog.repo.js';
import type { ReleaseState } from './catalog.table.js';
import { changeProduct } from './catalog-changes.service.js';
import { requireProduct, touchProduct } from './products.service.js';
import { releaseAudience } from './release-audience.js';

export interface ReleaseInput {
  name: string;
  editionId?: string | null;
  state?: ReleaseState;
  releaseDate?: number | null;
  excludedCountries?: string[];
}

export interface ReleasePatch {
  name?: string;
  state?: ReleaseState;
  releaseDate?: number | null;
  excludedCountries?: string[];
  delisted?: boolean;
}

export interface SkuInput {
  code: string;
  platform: string;
  activationType?: 'worldwide' | 'countries' | 'unknown';
  activationCountries?: string[] | null;
  /** Countries where the key cannot be activated. */
  regionLocks?: string[] | null;
}

const ORDER: ReleaseState[] = ['planned', 'announced', 'available'];

export async function requireRelease(ex: Executor, id: string): Promise<repo.ReleaseRow> {
  const release = await repo.findRelease(ex, id);
  if (!release) throw fail('NOT_FOUND', `No release ${id}.`);
  return release;
}

export async function createRelease(ctx: AppContext, trx: Executor, productId: string, input: ReleaseInput) {
  const product = await requireProduct(trx, productId);
  if (input.editionId) {
    const edition = await repo.findEdition(trx, input.editionId);
    if (!edition || edition.product_id !== productId)
      throw fail('NOT_FOUND', `No edition ${input.editionId} on this product.`);
  }
  const now = ctx.clock.now();
  const id = uuidv7(now);
  await changeProduct(ctx, trx, product, ['metadata'], async () => {
    await repo.insertRelease(trx, {
      id,
      product_id: productId,
      edition_id: input.editionId ?? null,
      name: input.name,
      state: input.state ?? 'planned',
      release_date: input.releaseDate ?? null,
      excluded_countries: JSON.stringify((input.excludedCountries ?? []).map((c) => c.toUpperCase())),
      created_at: now,
      updated_at: now,
    });
    await touchProduct(trx, productId, now);
  });
  return requireRelease(trx, id);
}

/**
 * Moves a release forward (announced, then available: `product.announced`,
 * `release.available`), moves its date (`release.date_changed`), edits its territory
 * exclusions or delists it. A pre-order becomes its release in place: same SKUs.
 */
export async function updateRelease(ctx: AppContext, trx: Executor, id: string, patch: ReleasePatch) {
  const release = await requireRelease(trx, id);
  const product = await requireProduct(trx, release.product_id);
  if (patch.state && ORDER.indexOf(patch.state) < ORDER.indexOf(release.state)) {
    throw fail('VALIDATION_FAILED', `A release cannot go back from ${release.state} to ${patch.state}.`, {
      issues: [{ field: 'state', in: 'body', message: 'release states only move forward', keyword: 'enum' }],
    });
  }
  const now = ctx.clock.now();
  const fields = [
    ...(patch.name !== undefined ? (['metadata'] as const) : []),
    ...(patch.state !== undefined || patch.delisted !== undefined ? (['availability'] as const) : []),
    ...(patch.excludedCountries !== undefined ? (['territory'] as const) : []),
    ...(patch.releaseDate !== undefined ? (['metadata'] as const) : []),
  ];
  const diff = await changeProduct(ctx, trx, product, [...new Set(fields)], async () => {
    await repo.updateRelease(trx, id, {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.state !== undefined ? { state: patch.state } : {}),
      ...(patch.releaseDate !== undefined ? { release_date: patch.releaseDate } : {}),
      ...(patch.excludedCountries !== undefined
        ? { excluded_countries: JSON.stringify(patch.excludedCountries.map((c) => c.toUpperCase())) }
        : {}),
      ...(patch.delisted !== undefined ? { delisted: patch.delisted ? 1 : 0 } : {}),
      updated_at: now,
    });
    await touchProduct(trx, product.id, now);
  });
  const audience = await releaseAudience(ctx, trx, id, [...diff.kept, ...diff.added]);
  const advanced = patch.state !== undefined && patch.state !== release.state;
  if (advanced && patch.state === 'available') await wakeJobAtCommit(trx, PREORDER_CONVERSION_JOB);
  if (advanced && patch.state === 'announced') {
    await emit(ctx, trx, audience, 'product.announced', { productId: product.id, releaseId: id });
  }
  if (advanced && patch.state === 'available') {
    await emit(ctx, trx, audience, 'release.available', { productId: product.id, releaseId: id });
  }
  if (patch.releaseDate !== undefined && patch.releaseDate !== release.release_date) {
    await emit(ctx, trx, audience, 'release.date_changed', {
      productId: product.id,
      releaseId: id,
      skuIds: (await repo.skusOfRelease(trx, id)).map((s) => s.id),
      oldDate: isoOrNull(release.release_date),
      newDate: isoOrNull(patch.releaseDate),
    });
  }
  if (patch.state !== undefined || patch.delisted !== undefined) {
    const skuIds = (await repo.skusOfRelease(trx, id)).map((s) => s.id);
    await ctx.grants.refreshForPublisher(trx, product.publisher_company_id, product.environment, skuIds);
  }
  return requireRelease(trx, id);
}

export async function requireSku(ex: Executor, id: string): Promise<repo.SkuRow> {
  const sku = await repo.findSku(ex, id);
  if (!sku) throw fail('NOT_FOUND', `No SKU ${id}.`);
  return sku;
}

export async function createSku(ctx: AppContext, trx: Executor, releaseId: string, input: SkuInput) {
  const release = await requireRelease(trx, releaseId);
  const product = await requireProduct(trx, release.product_id);
  if (await repo.findSkuByCode(trx, input.code)) {
    throw fail('VALIDATION_FAILED', `SKU code ${input.code} is taken.`, {
      issues: [{ field: 'code', in: 'body', message: 'must be unique', keyword: 'unique' }],
    });
  }
  const type = input.activationType ?? (input.activationCountries?.length ? 'countries' : 'worldwide');
  const now = ctx.clock.now();
  const id = uuidv7(now);
  await changeProduct(ctx, trx, product, ['metadata'], async () => {
    await repo.insertSku(trx, {
      id,
      code: input.code,
      product_id: product.id,
      release_id: releaseId,
      platform: input.platform,
      activation_type: type,
      activation_countries:
        type === 'countries'
          ? JSON.stringify((input.activationCountries ?? []).map((c) => c.toUpperCase()))
          : null,
      region_locks: input.regionLocks?.length
        ? JSON.stringify(input.regionLocks.map((c) => c.toUpperCase()))
        : null,
      created_at: now,
      updated_at: now,
    });
    await touchProduct(trx, product.id, now);
  });
  return requireSku(trx, id);
}

/** Delists or relists one SKU; the product stays live, so sellers see `updated` (availability). */
export async function setSkuDelisted(ctx: AppContext, trx: Executor, id: string, delisted: boolean) {
  const sku = await requireSku(trx, id);
  const product = await requireProduct(trx, sku.product_id);
  const now = ctx.clock.now();
  await changeProduct(ctx, trx, product, ['availability'], async () => {
    await repo.updateSku(trx, id, { delisted: delisted ? 1 : 0, updated_at: now });
    await touchProduct(trx, product.id, now);
  });
  await ctx.grants.refreshForPublisher(trx, product.publisher_company_id, product.environment, [id]);
  return requireSku(trx, id);
}
