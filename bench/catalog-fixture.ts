import type { AppContext } from '../src/context.js';
import { createCompany } from '../src/modules/companies/companies.service.js';
import { connect } from '../src/modules/partners/partners.service.js';

/**
 * A publisher whose whole catalog of `count` live products is shared with `sellerId`,
 * written with bulk inserts (publisher-side events are not what these benchmarks measure).
 */
export async function seedCatalog(ctx: AppContext, sellerId: string, count: number) {
  const publisher = await createCompany(
    ctx,
    { name: 'Bench Publisher', kind: 'publisher', country: 'US' },
    ctx.db,
  );
  await connect(
    ctx,
    {
      sellerCompanyId: sellerId,
      publisherCompanyId: publisher.id,
      catalogShareMode: 'whole_catalog',
    },
    ctx.db,
  );
  const base = ctx.clock.now() - count;
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, (_, j) => {
      const i = start + j;
      return {
        id: `0190a1b2-0000-7000-8000-${String(i).padStart(12, '0')}`,
        publisher_company_id: publisher.id,
        environment: 'production',
        name: `Bench Game ${i}`,
        slug: `bench-game-${i}`,
        short_description: JSON.stringify({ en: `Bench game number ${i}`, de: `Testspiel Nummer ${i}` }),
        status: 'active' as const,
        launch_phase: 'released' as const,
        trading_state: 'trading' as const,
        platforms: '[{"code":"steam"}]',
        regions: '[{"code":"WW"}]',
        cover: null,
        archive_at: null,
        preorder_start: null,
        preorder_end: null,
        churn_period_hours: null,
        created_at: base + i,
        updated_at: base + i,
      };
    });
    await ctx.db.insertInto('products').values(rows).execute();
  }
  return publisher;
}
