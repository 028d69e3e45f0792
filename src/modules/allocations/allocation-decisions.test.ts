import { describe, expect, it } from 'vitest';
import { admin, adminHeaders, buildCatalog, eventsFor } from '../../../test/admin.js';
import { makeKey } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();

/** A production seller with a 10-key grant under a manual request policy, and one pending request of 20. */
async function pendingRequest() {
  const c = await buildCatalog(t);
  const key = await makeKey(t, c.sellerId, { environment: 'production' });
  const headers = { ...key.auth, 'x-forwarded-for': '8.8.8.8' };
  const grant = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
    skuId: c.skuId,
    quantityLimit: 10,
    requestPolicy: 'manual',
  });
  const asked = await call(t, {
    method: 'POST',
    url: '/api/seller/v1/allocations/requests',
    headers,
    payload: { grantId: grant.id, requestedQuantity: 20 },
  });
  expect(asked.body.data.status).toBe('pending');
  return { c, headers, grantId: grant.id as string, requestId: asked.body.data.id as string };
}

const decide = (id: string, decision: 'approve' | 'decline', payload: Record<string, unknown>) =>
  t.adminApp
    .inject({
      method: 'POST',
      url: `/admin/v1/allocation-requests/${id}/${decision}`,
      headers: adminHeaders,
      payload,
    })
    .then((r) => ({ status: r.statusCode, body: r.json() }));

const limitOf = async (grantId: string) =>
  (
    await t.ctx.db
      .selectFrom('allocations')
      .select('quantity_limit')
      .where('id', '=', grantId)
      .executeTakeFirstOrThrow()
  ).quantity_limit;

async function sellerSees(headers: Record<string, string>, requestId: string) {
  const list = await call(t, { method: 'GET', url: '/api/seller/v1/allocations/requests', headers });
  return list.body.data.find((r: { id: string }) => r.id === requestId);
}

describe('manual allocation requests: the operator decides', () => {
  it('lists pending requests, approves one (the grant grows, allocation.updated) and shows the decision', async () => {
    const p = await pendingRequest();
    const pending = await admin(t, 'GET', `/allocation-requests?status=pending&companyId=${p.c.sellerId}`);
    expect(pending.map((r: { id: string }) => r.id)).toEqual([p.requestId]);
    const before = t.ctx.clock.now();
    const approved = await decide(p.requestId, 'approve', {});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const decidedAt = Date.parse(approved.body.data.resolution.resolvedAt);
    expect(decidedAt).toBeGreaterThanOrEqual(before);
    expect(decidedAt).toBeLessThanOrEqual(t.ctx.clock.now());
    expect(approved.body.data).toMatchObject({ status: 'approved', sellerCompanyId: p.c.sellerId });
    expect(await limitOf(p.grantId)).toBe(30);
    expect((await eventsFor(t, p.c.sellerId, 'allocation.updated')).at(-1)?.data).toMatchObject({
      allocationId: p.grantId,
      remaining: 30,
    });
    expect(await sellerSees(p.headers, p.requestId)).toMatchObject({
      status: 'approved',
      resolution: {
        approvedQuantity: 20,
        reason: 'approved_by_publisher',
        resolvedAt: approved.body.data.resolution.resolvedAt,
      },
    });
    expect(await admin(t, 'GET', `/allocation-requests?status=pending&companyId=${p.c.sellerId}`)).toEqual(
      [],
    );
  });

  it('approves a smaller quantity than asked, with the reason given', async () => {
    const p = await pendingRequest();
    const approved = await decide(p.requestId, 'approve', { approvedQuantity: 5, reason: 'stock is short' });
    expect(approved.status).toBe(200);
    expect(await limitOf(p.grantId)).toBe(15);
    expect(await sellerSees(p.headers, p.requestId)).toMatchObject({
      status: 'approved',
      resolution: { approvedQuantity: 5, reason: 'stock is short' },
    });
  });

  it('declines with a reason: the grant and its events stay as they were', async () => {
    const p = await pendingRequest();
    const eventsBefore = (await eventsFor(t, p.c.sellerId)).length;
    expectApiError(await decide(p.requestId, 'decline', {}), 422, 'VALIDATION_FAILED');
    expectApiError(
      await decide(p.requestId, 'decline', { reason: 'no', extra: 1 }),
      422,
      'VALIDATION_FAILED',
    );
    const declined = await decide(p.requestId, 'decline', { reason: 'launch allocation is final' });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(await limitOf(p.grantId)).toBe(10);
    expect((await eventsFor(t, p.c.sellerId)).length).toBe(eventsBefore);
    expect(await sellerSees(p.headers, p.requestId)).toMatchObject({
      status: 'rejected',
      resolution: {
        approvedQuantity: null,
        reason: 'launch allocation is final',
        resolvedAt: expect.any(String),
      },
    });
  });

  it('refuses a second decision with 409 ALLOCATION_REQUEST_RESOLVED, changing nothing; unknown is 404', async () => {
    const p = await pendingRequest();
    expect((await decide(p.requestId, 'decline', { reason: 'no' })).status).toBe(200);
    const again = await decide(p.requestId, 'approve', {});
    expectApiError(again, 409, 'ALLOCATION_REQUEST_RESOLVED');
    expect(again.body.details).toMatchObject({ status: 'rejected', reason: 'no' });
    expect(await limitOf(p.grantId)).toBe(10);
    expectApiError(await decide('0190a1b2-0000-7000-8000-000000000000', 'approve', {}), 404, 'NOT_FOUND');
  });

  it('grows the grant once when two approvals race (accounting; one process)', async () => {
    const p = await pendingRequest();
    const results = await Promise.all([
      decide(p.requestId, 'approve', {}),
      decide(p.requestId, 'approve', {}),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await limitOf(p.grantId)).toBe(30);
  });

  it('refuses to approve on a revoked grant; a decline still resolves it', async () => {
    const p = await pendingRequest();
    await admin(t, 'PATCH', `/allocations/${p.grantId}`, { status: 'revoked' });
    expectApiError(await decide(p.requestId, 'approve', {}), 409, 'ALLOCATION_NOT_AVAILABLE');
    expect((await sellerSees(p.headers, p.requestId)).status).toBe('pending');
    expect((await decide(p.requestId, 'decline', { reason: 'grant revoked' })).status).toBe(200);
  });
});
