import { describe, expect, it } from 'vitest';
import { adminHeaders } from '../../test/admin.js';
import { makeKey, makeSeller } from '../../test/factories.js';
import { useTestApp } from '../../test/harness.js';
import { call, expectApiError } from '../../test/route-contract.js';

const t = useTestApp();
const API = '/api/seller/v1';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

const expectBodyRefused = (result: { status: number; body: unknown }, fields: string[]) => {
  expectApiError(result, 422, 'VALIDATION_FAILED');
  const issues = (result.body as { details: { issues: { field: string; in: string }[] } }).details.issues;
  expect(issues.map(({ field, in: where }) => `${where} ${field}`)).toEqual(fields.map((f) => `body ${f}`));
};

describe('a route that declares no body refuses one, naming what was sent', () => {
  it('POST /keys/{id}/rotate with a body answers 422 and rotates nothing; without one it rotates', async () => {
    const seller = await makeSeller(t);
    const target = await makeKey(t, seller.company.id);
    const refused = await call(t, {
      method: 'POST',
      url: `${API}/keys/${target.keyId}/rotate`,
      headers: seller.auth,
      payload: { name: 'renamed', expiresAt: null },
    });
    expectBodyRefused(refused, ['name', 'expiresAt']);
    const whoami = await call(t, { method: 'GET', url: `${API}/whoami`, headers: target.auth });
    expect(whoami.status, 'the old secret still works').toBe(200);

    const empty = await call(t, {
      method: 'POST',
      url: `${API}/keys/${target.keyId}/rotate`,
      headers: seller.auth,
      payload: {},
    });
    expect(empty.status, 'an empty object says nothing').toBe(200);
  });

  it.each([
    ['POST', `/orders/${UNKNOWN_ID}/extend`],
    ['POST', `/webhooks/${UNKNOWN_ID}/disable`],
    ['POST', `/webhooks/${UNKNOWN_ID}/enable`],
    ['DELETE', `/webhooks/${UNKNOWN_ID}`],
  ] as const)('%s %s with a body answers 422 before looking anything up', async (method, path) => {
    const seller = await makeSeller(t);
    const result = await call(t, {
      method,
      url: `${API}${path}`,
      headers: seller.auth,
      payload: { force: true },
    });
    expectBodyRefused(result, ['force']);
  });

  it('refuses a body that is not an object, and text', async () => {
    const seller = await makeSeller(t);
    const url = `${API}/keys/${seller.keyId}/rotate`;
    expectBodyRefused(await call(t, { method: 'POST', url, headers: seller.auth, payload: [1] }), ['(root)']);
    const text = await call(t, {
      method: 'POST',
      url,
      headers: { ...seller.auth, 'content-type': 'text/plain' },
      payload: 'rotate please',
    });
    expectBodyRefused(text, ['(root)']);
  });

  it("the buyer's keyless capture takes no body either", async () => {
    const result = await call(t, {
      method: 'POST',
      url: `${API}/geo-attestations/gat_unknown/capture`,
      headers: { 'x-forwarded-for': '8.8.8.8' },
      payload: { countryCode: 'US' },
    });
    expectBodyRefused(result, ['countryCode']);
  });

  it('operator routes too: accepting an amendment takes no body', async () => {
    const result = await call(t, {
      method: 'POST',
      url: `/admin/v1/amendments/${UNKNOWN_ID}/accept`,
      headers: adminHeaders,
      payload: { acceptedBy: 'ops' },
    });
    expectBodyRefused(result, ['acceptedBy']);
  });

  it('key import reads text/plain or text/csv; a JSON body is refused as 415', async () => {
    const result = await call(t, {
      method: 'POST',
      url: `/admin/v1/pools/${UNKNOWN_ID}/keys`,
      headers: adminHeaders,
      payload: { keys: ['AAAA-BBBB'] },
    });
    expectApiError(result, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(result.body.message).toMatch(/text\/plain or text\/csv/);
  });
});
