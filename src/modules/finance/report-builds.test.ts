import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { eventsFor } from '../../../test/admin.js';
import { alwaysOrder } from '../../../test/checkout.js';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { euroOrder, placeSale, sellerGet } from '../../../test/finance.js';
import { ENGINE, useTestApp } from '../../../test/harness.js';
import { call } from '../../../test/route-contract.js';
import { uuidv7 } from '../../lib/ids.js';
import { buildPendingReports, REPORT_TYPE } from './report-builds.js';
import * as repo from './reports.repo.js';

const t = useTestApp();
const settle = () => Promise.all([...t.ctx.background]);
const scopeOf = (seller: TestSeller) => ({ sellerId: seller.company.id, environment: 'sandbox' });

/** A pending report as POST /reports records it, without starting its build. */
async function askReport(seller: TestSeller, filters: object, at: number) {
  const id = uuidv7(at);
  await repo.insertReport(t.ctx.db, {
    id,
    seller_company_id: seller.company.id,
    environment: 'sandbox',
    report_type: REPORT_TYPE,
    filters: JSON.stringify(filters),
    status: 'pending',
    created_at: at,
  });
  return id;
}

const holderOf = async (id: string) =>
  (
    await t.ctx.db
      .selectFrom('finance_reports')
      .select('artifact_of')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).artifact_of;

async function downloaded(seller: TestSeller, id: string) {
  const status = await sellerGet(t, seller, `/reports/${id}`);
  const link = new URL(status.body.data.downloadUrl);
  const artifact = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
  expect(artifact.statusCode).toBe(200);
  return { status: status.body.data, csv: gunzipSync(artifact.rawPayload).toString('utf8') };
}

describe('report builds', () => {
  it('builds the reports asked with the same filters once, stores one gzip for them, and announces each', async () => {
    const seller = await makeSeller(t);
    await placeSale(t, seller, alwaysOrder());
    await placeSale(t, seller, euroOrder());
    const now = t.ctx.clock.now();
    const first = await askReport(seller, { kinds: ['sale'] }, now);
    const second = await askReport(seller, { kinds: ['sale'] }, now + 1);
    const other = await askReport(seller, { kinds: ['refund'] }, now + 2);
    buildPendingReports(t.ctx, scopeOf(seller));
    await settle();

    expect([await holderOf(first), await holderOf(second), await holderOf(other)]).toEqual([
      first,
      first,
      other,
    ]);
    const stored = await t.ctx.db
      .selectFrom('finance_reports')
      .select('id')
      .where('seller_company_id', '=', seller.company.id)
      .where('artifact', 'is not', null)
      .execute();
    expect(stored.map((r) => r.id).sort()).toEqual([first, other].sort());

    const live = async (query: string) =>
      (
        await call(t, {
          method: 'GET',
          url: `/api/seller/v1/activity?format=csv${query}`,
          headers: seller.auth,
        })
      ).raw;
    const [a, b, c] = [
      await downloaded(seller, first),
      await downloaded(seller, second),
      await downloaded(seller, other),
    ];
    expect(a.csv).toBe(await live('&kinds=sale'));
    expect(b.csv).toBe(a.csv);
    expect(b.status).toMatchObject({
      status: 'ready',
      rows: 2,
      checksum: a.status.checksum,
      bytes: a.status.bytes,
    });
    expect(c.csv).toBe(await live('&kinds=refund'));
    expect(c.csv).not.toBe(a.csv);
    const announced = (await eventsFor(t, seller.company.id, 'report.ready')).map((e) => e.data.reportId);
    expect(announced.sort()).toEqual([first, second, other].sort());
  });

  it('builds a report asked while another of the seller is building, in a later build', async () => {
    const seller = await makeSeller(t);
    await placeSale(t, seller, alwaysOrder());
    const first = await askReport(seller, {}, t.ctx.clock.now());
    buildPendingReports(t.ctx, scopeOf(seller));
    const later = await askReport(seller, {}, t.ctx.clock.now() + 1);
    buildPendingReports(t.ctx, scopeOf(seller));
    await settle();
    for (const id of [first, later])
      expect((await sellerGet(t, seller, `/reports/${id}`)).body.data.status).toBe('ready');
  });

  it(`takes each pending report for exactly one build when two take at once (${ENGINE === 'postgres' ? 'two connections race on PostgreSQL' : 'SQLite: the accounting only'})`, async () => {
    const seller = await makeSeller(t);
    const now = t.ctx.clock.now();
    const asked: string[] = [];
    for (let i = 0; i < 6; i++)
      asked.push(await askReport(seller, { kinds: i % 2 ? ['sale'] : ['refund'] }, now + i));
    const builds = (
      await Promise.all([1, 2, 3].map(() => repo.takeUnbuiltReports(t.ctx.db, scopeOf(seller))))
    ).filter((b) => b !== undefined);
    const taken = builds.flatMap((b) => b!.reportIds);
    expect(taken.sort()).toEqual([...asked].sort());
    // Two filter sets need two builds at least; a taker that leads after another took its lead
    // may split one set into a third build, never a report into two.
    expect(builds.length).toBeGreaterThanOrEqual(2);
    for (const b of builds) expect(new Set(b!.reportIds.map((id) => asked.indexOf(id) % 2)).size).toBe(1);
    expect(await repo.takeUnbuiltReports(t.ctx.db, scopeOf(seller))).toBeUndefined();
  });
});
