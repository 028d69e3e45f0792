import { describe, expect, it } from 'vitest';
import { consoleCall, consoleUser } from '../../../test/console.js';
import { makeKey, makeSeller } from '../../../test/factories.js';
import type { TestApp } from '../../../test/harness.js';
import { useTestApp } from '../../../test/harness.js';
import { requestLogRow } from '../../../test/request-log.js';
import { call } from '../../../test/route-contract.js';
import { RequestLogRecorder } from './request-log.recorder.js';

const t = useTestApp();
const quiet = useTestApp({ requestLog: false });
const API = '/api/seller/v1';

const lastUsedOf = async (app: TestApp, keyId: string) =>
  (
    await app.ctx.db
      .selectFrom('api_keys')
      .select('last_used_at')
      .where('id', '=', keyId)
      .executeTakeFirstOrThrow()
  ).last_used_at;

const rowOf = (seller: { company: { id: string } }, keyId: string, at: number) =>
  requestLogRow(seller.company.id, keyId, `req_${keyId.slice(0, 8)}_${at}`, at);

describe("an API key's last use", () => {
  it('moves forward when the request log writes a request made with the key; another key stays untouched', async () => {
    const owner = await consoleUser(t, 'owner');
    const other = await makeKey(t, owner.seller.company.id);
    const listed = async () =>
      Object.fromEntries(
        (await consoleCall(t, owner, 'GET', '/keys')).body.data.map(
          (key: { id: string; lastUsedAt: string | null }) => [key.id, key.lastUsedAt],
        ),
      );
    expect(await listed()).toEqual({ [owner.seller.keyId]: null, [other.keyId]: null });

    const usedNow = async () => {
      const before = t.ctx.clock.now();
      const reply = await call(t, { method: 'GET', url: `${API}/whoami`, headers: owner.seller.auth });
      expect(reply.status).toBe(200);
      return { before, after: t.ctx.clock.now() };
    };
    const first = await usedNow();
    const afterFirst = await listed();
    expect(afterFirst[other.keyId]).toBeNull();
    const firstUse = Date.parse(afterFirst[owner.seller.keyId]);
    expect(firstUse).toBeGreaterThanOrEqual(first.before);
    expect(firstUse).toBeLessThanOrEqual(first.after);

    t.ctx.testClock!.advance(60);
    const second = await usedNow();
    const afterSecond = await listed();
    expect(afterSecond[other.keyId]).toBeNull();
    const secondUse = Date.parse(afterSecond[owner.seller.keyId]);
    expect(secondUse).toBeGreaterThanOrEqual(second.before);
    expect(secondUse).toBeGreaterThanOrEqual(firstUse + 60_000);
    expect(await lastUsedOf(t, other.keyId)).toBeNull();
  });

  it('takes the newest request of a batch, and a later batch with older requests never moves it back', async () => {
    const seller = await makeSeller(t);
    const untouched = await makeKey(t, seller.company.id);
    const recorder = new RequestLogRecorder(t.ctx);
    for (const at of [1_000_000, 9_000_000, 4_000_000]) recorder.record(rowOf(seller, seller.keyId, at));
    await recorder.flush();
    expect(await lastUsedOf(t, seller.keyId)).toBe(9_000_000);

    recorder.record(rowOf(seller, seller.keyId, 5_000_000));
    await recorder.flush();
    expect(await lastUsedOf(t, seller.keyId)).toBe(9_000_000);

    recorder.record(rowOf(seller, seller.keyId, 12_000_000));
    await recorder.flush();
    expect(await lastUsedOf(t, seller.keyId)).toBe(12_000_000);
    expect(await lastUsedOf(t, untouched.keyId)).toBeNull();
  });

  it("is shown to the console and the operator, never in the seller API's key list", async () => {
    const seller = await makeSeller(t);
    const keys = await call(t, { method: 'GET', url: `${API}/keys`, headers: seller.auth });
    expect(keys.status).toBe(200);
    expect(keys.body.data[0]).not.toHaveProperty('lastUsedAt');
    await call(t, { method: 'GET', url: `${API}/request-logs`, headers: seller.auth });
    const operator = await call(t, {
      method: 'GET',
      url: `/admin/v1/companies/${seller.company.id}/keys`,
      headers: { authorization: `Bearer ${t.config.adminToken}` },
    });
    expect(operator.body.data[0].lastUsedAt).toEqual(expect.any(String));
  });

  it('with SDAPI_REQUEST_LOG=off records no request and moves no last use', async () => {
    const seller = await makeSeller(quiet);
    const reply = await call(quiet, { method: 'GET', url: `${API}/whoami`, headers: seller.auth });
    expect(reply.status).toBe(200);
    const logged = await call(quiet, { method: 'GET', url: `${API}/request-logs`, headers: seller.auth });
    expect(logged.body.data).toEqual([]);
    expect(await lastUsedOf(quiet, seller.keyId)).toBeNull();
    expect(
      await quiet.ctx.db
        .selectFrom('request_log')
        .select('request_id')
        .where('company_id', '=', seller.company.id)
        .execute(),
    ).toEqual([]);
  });
});
