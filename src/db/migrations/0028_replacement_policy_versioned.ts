import type { Kysely } from 'kysely';
import { bumpCatalogVersionOnChangesOf, dropCatalogVersionTriggerOf } from './0009_order_path.js';
import { GRANT_TERMS } from './0017_live_reads_versioned.js';

/**
 * A grant's replacement policy (added by 0022, docs/after-sale.md) is one of its terms: setting
 * it bumps the catalog version like every other term (0017), so the grant reads cached under
 * that version (GET /allocations, the order path) see the new policy at once.
 */
export const LATER_GRANT_TERMS = ['replacement_policy'] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await dropCatalogVersionTriggerOf(db, 'allocations');
  await bumpCatalogVersionOnChangesOf(db, 'allocations', [...GRANT_TERMS, ...LATER_GRANT_TERMS]);
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await dropCatalogVersionTriggerOf(db, 'allocations');
  await bumpCatalogVersionOnChangesOf(db, 'allocations', GRANT_TERMS);
}
