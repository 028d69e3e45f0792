import { describe, expect, it } from 'vitest';
import { consoleCall, consoleUser } from '../../../test/console.js';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();
const newKey = {
  name: 'web shop',
  scopes: ['seller:products:read', 'seller:orders:preview'],
  allowedIps: [],
};

const auditOf = (companyId: string) =>
  t.ctx.db
    .selectFrom('console_audit')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('at')
    .execute();

describe('console API keys, roles and tenancy', () => {
  it('creates a key whose secret works on the seller API once, and lists only its prefix', async () => {
    const dev = await consoleUser(t, 'developer');
    const created = await consoleCall(t, dev, 'POST', '/keys', newKey);
    expect(created.status).toBe(201);
    const secret = created.body.data.key as string;
    const whoami = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/whoami',
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(whoami.status).toBe(200);
    const listed = await consoleCall(t, dev, 'GET', '/keys');
    expect(listed.raw).not.toContain(secret);
    const row = listed.body.data.find((k: { id: string }) => k.id === created.body.data.id);
    expect(row).toMatchObject({ name: 'web shop', scopes: newKey.scopes, allowedIps: null });
    expect(secret.startsWith(row.keyHint)).toBe(true);
    const audit = await auditOf(dev.seller.company.id);
    expect(audit.map((a) => [a.action, a.source, a.actor])).toContainEqual([
      'key.created',
      'console',
      `user:${dev.email}`,
    ]);
  });

  it('rotates, rolls with overlap, edits the allowlist and revokes, each audited', async () => {
    const owner = await consoleUser(t, 'owner');
    const id = (await consoleCall(t, owner, 'POST', '/keys', newKey)).body.data.id as string;
    const rotated = await consoleCall(t, owner, 'POST', `/keys/${id}/rotate`);
    expect(rotated.status).toBe(200);
    const rolled = await consoleCall(t, owner, 'POST', `/keys/${id}/roll`);
    expect(rolled.status).toBe(201);
    expect(rolled.body.data.id).not.toBe(id);
    const bad = await consoleCall(t, owner, 'PUT', `/keys/${id}/allowed-ips`, { allowedIps: ['10.0.0.0/8'] });
    expectApiError(bad, 422, 'VALIDATION_FAILED');
    expect(bad.body.details.issues[0].field).toBe('allowed_ips[0]');
    expect(
      (await consoleCall(t, owner, 'PUT', `/keys/${id}/allowed-ips`, { allowedIps: ['8.8.8.8'] })).status,
    ).toBe(204);
    expect((await consoleCall(t, owner, 'DELETE', `/keys/${id}`)).status).toBe(204);
    const live = (await consoleCall(t, owner, 'GET', '/keys')).body.data.map((k: { id: string }) => k.id);
    expect(live).toContain(rolled.body.data.id);
    expect(live).not.toContain(id);
    const actions = (await auditOf(owner.seller.company.id)).map((a) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining(['key.created', 'key.rotated', 'key.allowlist_changed', 'key.revoked']),
    );
    expect(actions.filter((a) => a === 'key.created')).toHaveLength(2);
  });

  it('checks an allowlist with the API rules without saving it', async () => {
    const viewer = await consoleUser(t, 'viewer');
    const checked = await consoleCall(t, viewer, 'POST', '/keys/allowlist-check', {
      entries: ['8.8.8.8', '127.0.0.1'],
    });
    expect(checked.body.data.valid).toBe(false);
    expect(checked.body.data.issues[0].field).toBe('allowed_ips[1]');
  });

  it('a key change through the seller API is audited as the API key', async () => {
    const owner = await consoleUser(t, 'owner');
    const created = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/keys',
      headers: owner.seller.auth,
      payload: { name: 'from the api' },
    });
    expect(created.status).toBe(201);
    const audit = await auditOf(owner.seller.company.id);
    expect(audit.map((a) => [a.action, a.source, a.actor])).toContainEqual([
      'key.created',
      'api',
      `key:${owner.seller.keyId}`,
    ]);
  });

  it('follows the role matrix: viewers and finance read, developers write keys, owners manage the team', async () => {
    const owner = await consoleUser(t, 'owner');
    const roles = {
      developer: await consoleUser(t, 'developer', owner.seller),
      finance: await consoleUser(t, 'finance', owner.seller),
      viewer: await consoleUser(t, 'viewer', owner.seller),
    };
    for (const [role, user] of Object.entries(roles)) {
      expect((await consoleCall(t, user, 'GET', '/keys')).status, role).toBe(200);
      const create = await consoleCall(t, user, 'POST', '/keys', newKey);
      if (role === 'developer') expect(create.status).toBe(201);
      else expectApiError(create, 403, 'FORBIDDEN');
      expectApiError(await consoleCall(t, user, 'GET', '/audit'), 403, 'FORBIDDEN');
      expectApiError(
        await consoleCall(t, user, 'POST', '/team/invites', { email: 'x@example.com', role: 'owner' }),
        403,
        'FORBIDDEN',
      );
    }
    expect((await consoleCall(t, owner, 'GET', '/audit')).status).toBe(200);
    const invited = await consoleCall(t, owner, 'POST', '/team/invites', {
      email: 'new@example.com',
      role: 'viewer',
    });
    expect(invited.status).toBe(201);
    expect(invited.body.data.link).toMatch(/\/console\/invite#/);
    const keys = await t.ctx.db
      .selectFrom('api_keys')
      .selectAll()
      .where('company_id', '=', owner.seller.company.id)
      .execute();
    expect(keys).toHaveLength(2);
  });

  it('a role change applies at once (the user is signed out) and the last owner cannot step down', async () => {
    const owner = await consoleUser(t, 'owner');
    const dev = await consoleUser(t, 'developer', owner.seller);
    expect(
      (await consoleCall(t, owner, 'PUT', `/team/users/${dev.userId}/role`, { role: 'viewer' })).status,
    ).toBe(204);
    expectApiError(await consoleCall(t, dev, 'GET', '/keys'), 401, 'UNAUTHORIZED');
    const last = await consoleCall(t, owner, 'PUT', `/team/users/${owner.userId}/role`, { role: 'viewer' });
    expectApiError(last, 422, 'VALIDATION_FAILED');
    const actions = (await auditOf(owner.seller.company.id)).map((a) => a.action);
    expect(actions).toContain('user.role_changed');
  });

  it("answers 404 for another company's keys and users, and changes nothing", async () => {
    const owner = await consoleUser(t, 'owner');
    const stranger = await consoleUser(t, 'owner');
    const theirKey = stranger.seller.keyId;
    for (const [method, path, body] of [
      ['POST', `/keys/${theirKey}/rotate`, undefined],
      ['POST', `/keys/${theirKey}/roll`, undefined],
      ['PUT', `/keys/${theirKey}/allowed-ips`, { allowedIps: ['8.8.8.8'] }],
      ['DELETE', `/keys/${theirKey}`, undefined],
      ['PUT', `/team/users/${stranger.userId}/role`, { role: 'viewer' }],
      ['DELETE', `/team/users/${stranger.userId}`, undefined],
    ] as const) {
      expectApiError(await consoleCall(t, owner, method, path, body), 404, 'NOT_FOUND');
    }
    const key = await t.ctx.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', theirKey)
      .executeTakeFirstOrThrow();
    expect(key.revoked_at).toBeNull();
    expect(key.rotated_at).toBeNull();
    const team = await consoleCall(t, owner, 'GET', '/team');
    expect(team.raw).not.toContain(stranger.email);
    const audit = await consoleCall(t, owner, 'GET', '/audit');
    expect(audit.raw).not.toContain(stranger.email);
  });

  it('production keys follow the API gates: production access first, then an allowlist', async () => {
    const owner = await consoleUser(t, 'owner');
    await consoleCall(t, owner, 'PUT', '/environment', { environment: 'production' });
    expectApiError(
      await consoleCall(t, owner, 'POST', '/keys', newKey),
      403,
      'PRODUCTION_ACCESS_NOT_APPROVED',
    );
    const approved = await makeSeller(t, { environment: 'production' });
    const prodOwner = await consoleUser(t, 'owner', approved);
    await consoleCall(t, prodOwner, 'PUT', '/environment', { environment: 'production' });
    expectApiError(await consoleCall(t, prodOwner, 'POST', '/keys', newKey), 422, 'VALIDATION_FAILED');
    const ok = await consoleCall(t, prodOwner, 'POST', '/keys', { ...newKey, allowedIps: ['8.8.8.8'] });
    expect(ok.status).toBe(201);
    expect(ok.body.data.livemode).toBe(true);
  });

  it('serves the console pages with a strict Content-Security-Policy and unknown console calls as 404', async () => {
    const page = await call(t, { method: 'GET', url: '/console/keys' });
    expect(page.status).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const nonce = /nonce-([^']+)'/.exec(csp)?.[1];
    expect(page.raw).toContain(`<meta name="csp-nonce" content="${nonce}"`);
    const again = await call(t, { method: 'GET', url: '/console' });
    expect(again.headers['content-security-policy']).not.toBe(csp);
    expect(csp).toContain("frame-ancestors 'none'");
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(page.raw)?.[1];
    expect(script).toBeDefined();
    const asset = await call(t, { method: 'GET', url: script! });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expectApiError(await call(t, { method: 'GET', url: '/console/api/nothing' }), 404, 'NOT_FOUND');
    expectApiError(
      await call(t, { method: 'GET', url: '/console/assets/../../package.json' }),
      404,
      'NOT_FOUND',
    );
  });
});
