import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { consoleCall, consoleUser } from '../../../test/console.js';
import { useTestApp } from '../../../test/harness.js';
import { expectApiError } from '../../../test/route-contract.js';
import { insertAudit } from '../audit/audit.repo.js';

const t = useTestApp();

/** Rows of one company, many of them sharing one timestamp, with ids in no particular order. */
async function seedAudit(companyId: string, at: number, count: number, action: string) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    ids.push(id);
    await insertAudit(t.ctx.db, {
      id,
      company_id: companyId,
      at,
      actor: 'operator',
      source: 'cli',
      action,
      target: null,
      detail: null,
    });
  }
  return ids;
}

describe('console audit log paging', () => {
  it('pages rows sharing a timestamp completely, newest first, without a repeat', async () => {
    const owner = await consoleUser(t, 'owner');
    const stranger = await consoleUser(t, 'owner');
    const companyId = owner.seller.company.id;
    const before = await consoleCall(t, owner, 'GET', '/audit?limit=200');
    const existing = before.body.data.map((row: { id: string }) => row.id) as string[];
    const moment = Date.parse('2020-03-01T12:00:00Z');
    const seeded = [
      ...(await seedAudit(companyId, moment, 23, 'key.created')),
      ...(await seedAudit(companyId, moment - 1, 4, 'key.revoked')),
    ];
    await seedAudit(stranger.seller.company.id, moment, 5, 'key.created');

    const seen: { id: string; at: string }[] = [];
    let path = '/audit?limit=5';
    for (let pages = 0; pages < 20; pages++) {
      const reply = await consoleCall(t, owner, 'GET', path);
      expect(reply.status).toBe(200);
      seen.push(...reply.body.data);
      if (!reply.body.meta.hasMore) break;
      expect(reply.body.meta.nextCursor).toEqual(expect.any(String));
      path = `/audit?limit=5&cursor=${encodeURIComponent(reply.body.meta.nextCursor)}`;
    }
    const ids = seen.map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...existing, ...seeded].sort());
    const keys = seen.map((row) => [Date.parse(row.at), row.id] as const);
    const sorted = [...keys].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0));
    expect(keys).toEqual(sorted);
  });

  it('refuses a cursor it did not issue and an unknown parameter', async () => {
    const owner = await consoleUser(t, 'owner');
    expectApiError(
      await consoleCall(t, owner, 'GET', '/audit?cursor=not-a-cursor'),
      422,
      'VALIDATION_FAILED',
    );
    expectApiError(
      await consoleCall(t, owner, 'GET', '/audit?before=2020-01-01T00:00:00Z'),
      422,
      'VALIDATION_FAILED',
    );
  });
});
