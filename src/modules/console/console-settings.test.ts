import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consoleCall, consoleUser } from '../../../test/console.js';
import { useTestApp } from '../../../test/harness.js';
import { call, expectApiError } from '../../../test/route-contract.js';
import { CONSOLE_PAGES, withConsoleUrl } from '../../http/console-url.js';
import { emit } from '../events/outbox.service.js';
import { collectNotices } from '../notices/index.js';
import { publishDue } from '../webhooks/publisher.service.js';

const t = useTestApp();
const API = '/api/seller/v1';

describe('console settings and notices', () => {
  it('edits the footprint with the API service and its codes; only owners may', async () => {
    const owner = await consoleUser(t, 'owner');
    const saved = await consoleCall(t, owner, 'PUT', '/footprint', {
      countries: ['FR', 'DE'],
      currencies: ['EUR'],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ countries: ['DE', 'FR'], currencies: ['EUR'] });
    const fromApi = await call(t, { method: 'GET', url: `${API}/me/footprint`, headers: owner.seller.auth });
    expect(fromApi.body.data).toEqual(saved.body.data);
    expect((await consoleCall(t, owner, 'GET', '/company')).body.data.footprint).toEqual(saved.body.data);

    const bad = { countries: [], currencies: ['EURO'] };
    const refused = await consoleCall(t, owner, 'PUT', '/footprint', bad);
    const apiRefused = await call(t, {
      method: 'PUT',
      url: `${API}/me/footprint`,
      headers: owner.seller.auth,
      payload: bad,
    });
    expectApiError(refused, 422, 'VALIDATION_FAILED');
    expect(apiRefused.body.code).toBe(refused.body.code);
    expect(refused.body.details.issues.map((i: { field: string }) => i.field).sort()).toEqual(
      apiRefused.body.details.issues.map((i: { field: string }) => i.field).sort(),
    );
    for (const role of ['developer', 'finance', 'viewer'] as const) {
      const user = await consoleUser(t, role, owner.seller);
      expectApiError(
        await consoleCall(t, user, 'PUT', '/footprint', { countries: ['US'], currencies: ['USD'] }),
        403,
        'FORBIDDEN',
      );
    }
    const audit = await t.ctx.db
      .selectFrom('console_audit')
      .select('action')
      .where('company_id', '=', owner.seller.company.id)
      .execute();
    expect(audit.map((a) => a.action)).toContain('footprint.replaced');
  });

  it('turns published events into notices once, read per company, tenancy and roles kept', async () => {
    const dev = await consoleUser(t, 'developer');
    const other = await consoleUser(t, 'owner');
    const recipients = [{ companyId: dev.seller.company.id, environment: 'sandbox' }];
    await t.ctx.db.transaction().execute(async (trx) => {
      await emit(t.ctx, trx, recipients, 'allocation.low_stock', {
        allocationId: 'a1',
        skuCode: 'SKU-LOW',
        remaining: 3,
        threshold: 5,
      });
      await emit(t.ctx, trx, recipients, 'allocation.depleted', {
        allocationId: 'a1',
        skuCode: 'SKU-LOW',
        remaining: 0,
      });
      await emit(t.ctx, trx, recipients, 'order.failed', {
        orderReference: 'o-1',
        skuCode: 'SKU-LOW',
        reasonCode: 'X',
      });
    });
    await publishDue(t.ctx);
    await collectNotices(t.ctx);
    await collectNotices(t.ctx);
    const listed = await consoleCall(t, dev, 'GET', '/notices');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((n: { kind: string }) => n.kind).sort()).toEqual([
      'allocation_depleted',
      'allocation_low_stock',
    ]);
    expect(listed.body.meta.unread).toBe(2);
    const low = listed.body.data.find((n: { kind: string }) => n.kind === 'allocation_low_stock');
    expect(low).toMatchObject({ subject: 'a1', detail: { remaining: 3, threshold: 5 }, readAt: null });

    expect((await consoleCall(t, other, 'GET', '/notices')).body.data).toEqual([]);
    expectApiError(
      await consoleCall(t, other, 'PUT', `/notices/${low.id}/read`, { read: true }),
      404,
      'NOT_FOUND',
    );
    const viewer = await consoleUser(t, 'viewer', dev.seller);
    expectApiError(
      await consoleCall(t, viewer, 'PUT', `/notices/${low.id}/read`, { read: true }),
      403,
      'FORBIDDEN',
    );
    expect((await consoleCall(t, dev, 'PUT', `/notices/${low.id}/read`, { read: true })).status).toBe(204);
    // Read for the whole company: the viewer sees it read, by whom.
    const seen = await consoleCall(t, viewer, 'GET', '/notices?unreadOnly=true');
    expect(seen.body.data.map((n: { kind: string }) => n.kind)).toEqual(['allocation_depleted']);
    expect(seen.body.meta.unread).toBe(1);
    const finance = await consoleUser(t, 'finance', dev.seller);
    expect((await consoleCall(t, finance, 'POST', '/notices/read-all')).body.data.marked).toBe(1);
    const all = (await consoleCall(t, viewer, 'GET', '/notices')).body;
    expect(all.meta.unread).toBe(0);
    expect(all.data.find((n: { id: string }) => n.id === low.id).readBy).toBe(`user:${dev.email}`);
  });

  it('links every consoleAction to a page the console routes; KYB and the wallet open the standing section', async () => {
    expect(Object.keys(CONSOLE_PAGES).sort()).toEqual(
      [
        'review_partner_contracts',
        'review_allocations',
        'manage_api_keys',
        'complete_kyb',
        'top_up_wallet',
        'review_partner_catalog',
      ].sort(),
    );
    const routes = ['main.tsx', 'catalog-usage-settings-routes.tsx']
      .map((file) => readFileSync(join('console/src', file), 'utf8'))
      .join('\n');
    for (const [action, page] of Object.entries(CONSOLE_PAGES)) {
      const path = page.replace(/^\/console\/?/, '').replace(/#.*$/, '');
      expect(routes, action).toContain(`path: '${path}'`);
      expect(withConsoleUrl({ consoleAction: action }, 'https://sell.example').consoleUrl).toBe(
        `https://sell.example${page}`,
      );
    }
    expect(CONSOLE_PAGES.complete_kyb).toBe('/console/settings#standing');
  });
});
