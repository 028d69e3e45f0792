import { describe, expect, it } from 'vitest';
import { admin } from '../../../test/admin.js';
import { ENGINE, useTestApp } from '../../../test/harness.js';
import { type ProductionScenario, productionOrder, productionScenario } from '../../../test/production.js';
import { call, describeRouteContract, expectApiError } from '../../../test/route-contract.js';
import { ADDRESS_RETENTION_MS, ATTESTATION_TTL_MS, clearCapturedAddresses } from './geo-attest.service.js';

const t = useTestApp();
const API = '/api/seller/v1';

const order = (s: ProductionScenario, body: unknown) =>
  call(t, { method: 'POST', url: `${API}/orders`, headers: s.seller.auth, payload: body as object });

async function createAttestation(auth: Record<string, string>) {
  const created = await call(t, { method: 'POST', url: `${API}/geo-attestations`, headers: auth });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data as { attestId: string; captureUrl: string; status: string };
}

/** What the buyer's browser does: a keyless POST from the buyer's own address. */
const capture = (attestId: string, buyerAddress = '8.8.8.8', origin = 'https://shop.example') =>
  call(t, {
    method: 'POST',
    url: `${API}/geo-attestations/${attestId}/capture`,
    headers: { 'x-forwarded-for': buyerAddress, origin },
  });

const attestationRow = (id: string) =>
  t.ctx.db.selectFrom('geo_attestations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

const saleOf = async (s: ProductionScenario, reference: string) => {
  const line = await t.ctx.db
    .selectFrom('sale_lines')
    .selectAll()
    .where('seller_company_id', '=', s.sellerId)
    .where('order_reference', '=', reference)
    .executeTakeFirstOrThrow();
  return { line, settlement: JSON.parse(line.settlement!) as { evidenceRank: number } };
};

const expectAttestRefused = (
  result: { status: number; body: { details: { issues: unknown[] } } },
  message: RegExp,
) => {
  expectApiError(result, 422, 'VALIDATION_FAILED');
  expect(result.body.details.issues).toEqual([
    expect.objectContaining({ field: 'consumerGeoAttestId', message: expect.stringMatching(message) }),
  ]);
};

describe(`checkout-page geo attestations (${ENGINE})`, () => {
  it("records the country of the buyer's address, sealed, and ranks the sale's evidence 1", async () => {
    const s = await productionScenario(t);
    const attestation = await createAttestation(s.seller.auth);
    expect(attestation).toMatchObject({ status: 'pending', attestId: expect.stringMatching(/^gat_/) });
    expect(attestation.captureUrl).toMatch(new RegExp(`/geo-attestations/${attestation.attestId}/capture$`));

    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: `${API}/geo-attestations/${attestation.attestId}/capture`,
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    const captured = await capture(attestation.attestId);
    expect(captured.status, JSON.stringify(captured.body)).toBe(200);
    expect(captured.headers['access-control-allow-origin']).toBe('*');
    expect(captured.body.data).toMatchObject({ status: 'captured', countryCode: 'US' });

    const row = await attestationRow(attestation.attestId);
    expect(row.country_code).toBe('US');
    expect(row.address_sealed).not.toContain('8.8.8.8');
    expect(t.ctx.secrets!.open(row.address_sealed!)).toBe('8.8.8.8');

    const body = productionOrder(s, { consumerGeoAttestId: attestation.attestId });
    const placed = await order(s, body);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect((await saleOf(s, body.orderReference)).settlement.evidenceRank).toBe(1);
    expect((await attestationRow(attestation.attestId)).order_reference).toBe(body.orderReference);

    // A retry of the same reference replays; another order may not spend it again.
    expect((await order(s, body)).body.data.orderId).toBe(placed.body.data.orderId);
    expectAttestRefused(
      await order(s, productionOrder(s, { consumerGeoAttestId: attestation.attestId })),
      /spent on another order/,
    );
    const seen = await call(t, {
      method: 'GET',
      url: `${API}/geo-attestations/${attestation.attestId}`,
      headers: s.seller.auth,
    });
    expect(seen.body.data).toMatchObject({ status: 'spent', orderReference: body.orderReference });
  });

  it('refuses a forged, uncaptured, expired or foreign attestation, naming the field, and writes nothing', async () => {
    const s = await productionScenario(t);
    const other = await productionScenario(t);
    const refusedWith = async (attestId: string, message: RegExp) => {
      const body = productionOrder(s, { consumerGeoAttestId: attestId });
      expectAttestRefused(await order(s, body), message);
      const written = await t.ctx.db
        .selectFrom('orders')
        .select('id')
        .where('order_reference', '=', body.orderReference)
        .execute();
      expect(written).toEqual([]);
    };
    await refusedWith('anything', /not an attestation of yours/);
    const uncaptured = await createAttestation(s.seller.auth);
    await refusedWith(uncaptured.attestId, /not captured/);
    const foreign = await createAttestation(other.seller.auth);
    expect((await capture(foreign.attestId)).status).toBe(200);
    await refusedWith(foreign.attestId, /not an attestation of yours/);

    const late = await createAttestation(s.seller.auth);
    expect((await capture(late.attestId)).status).toBe(200);
    t.ctx.testClock!.advance(ATTESTATION_TTL_MS / 1000 + 1);
    await refusedWith(late.attestId, /expired/);
    expect((await order(s, productionOrder(s))).status).toBe(200);
  });

  it('makes consumerGeoAttestRequired demand a real, captured attestation', async () => {
    const s = await productionScenario(t);
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { consumerGeoAttestRequired: true });
    expectAttestRefused(await order(s, productionOrder(s)), /required/);
    expectAttestRefused(await order(s, productionOrder(s, { consumerGeoAttestId: 'forged' })), /yours/);
    const attestation = await createAttestation(s.seller.auth);
    expectAttestRefused(
      await order(s, productionOrder(s, { consumerGeoAttestId: attestation.attestId })),
      /not captured/,
    );
    await capture(attestation.attestId);
    const body = productionOrder(s, { consumerGeoAttestId: attestation.attestId });
    expect((await order(s, body)).status).toBe(200);
    expect((await saleOf(s, body.orderReference)).settlement.evidenceRank).toBe(1);
  });

  it('takes the attested country as the detected one: a buyer elsewhere is a mismatch, not rank 1', async () => {
    const s = await productionScenario(t);
    const attestation = await createAttestation(s.seller.auth);
    expect((await capture(attestation.attestId, '80.128.0.1')).body.data.countryCode).toBe('DE');
    const body = productionOrder(s, { consumerGeoAttestId: attestation.attestId });
    const placed = await order(s, body);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.data.warnings.map((w: { code: string }) => w.code)).toContain('COUNTRY_MISMATCH');
    const { line, settlement } = await saleOf(s, body.orderReference);
    expect(settlement.evidenceRank).toBe(3);
    expect(line.detected_country_code).toBe('DE');
  });

  it('captures once, while live; unknown ids are not found', async () => {
    const s = await productionScenario(t);
    const attestation = await createAttestation(s.seller.auth);
    expect((await capture(attestation.attestId)).status).toBe(200);
    const again = await capture(attestation.attestId, '80.128.0.1');
    expectApiError(again, 409, 'GEO_ATTESTATION_CLOSED');
    expect(again.headers['access-control-allow-origin']).toBe('*');
    expect((await attestationRow(attestation.attestId)).country_code).toBe('US');
    expectApiError(await capture('gat_unknown'), 404, 'NOT_FOUND');
    const late = await createAttestation(s.seller.auth);
    t.ctx.testClock!.advance(ATTESTATION_TTL_MS / 1000 + 1);
    expectApiError(await capture(late.attestId), 409, 'GEO_ATTESTATION_CLOSED');
    expect((await attestationRow(late.attestId)).captured_at).toBeNull();
  });

  it('slows a flood from one address: the 31st capture in a minute answers 429 with Retry-After, as documented', async () => {
    const flooder = '9.9.9.9';
    for (let i = 0; i < 30; i++) expectApiError(await capture('gat_flood', flooder), 404, 'NOT_FOUND');
    const slowed = await capture('gat_flood', flooder);
    expectApiError(slowed, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(0);
    expect(slowed.body.hint).toMatch(/30 times a minute/);
    expect(slowed.body.hint).not.toMatch(/production keys/);
    const doc = (await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
    const tooMany = doc.paths[`${API}/geo-attestations/{attestId}/capture`].post.responses['429'];
    expect(tooMany.headers['Retry-After']).toEqual({ $ref: '#/components/headers/RetryAfter' });
    expect(await capture('gat_flood', '9.9.9.10'), 'another address is not slowed').toMatchObject({
      status: 404,
    });
  });

  it('clears the captured address 7 days after the attestation expires, by the clearing job', async () => {
    const s = await productionScenario(t);
    const attestation = await createAttestation(s.seller.auth);
    await capture(attestation.attestId);
    const { expires_at } = await attestationRow(attestation.attestId);
    t.ctx.testClock!.advance((expires_at + ADDRESS_RETENTION_MS - t.ctx.clock.now()) / 1000 - 60);
    await clearCapturedAddresses(t.ctx);
    expect((await attestationRow(attestation.attestId)).address_sealed).not.toBeNull();
    t.ctx.testClock!.advance(61);
    expect(await clearCapturedAddresses(t.ctx)).toBeGreaterThanOrEqual(1);
    const cleared = await attestationRow(attestation.attestId);
    expect(cleared.address_sealed).toBeNull();
    expect(cleared.address_cleared_at).toBeGreaterThanOrEqual(expires_at + ADDRESS_RETENTION_MS);
    expect(cleared.country_code).toBe('US');
  });
});

describeRouteContract('POST /geo-attestations', t, {
  method: 'POST',
  url: () => `${API}/geo-attestations`,
  scopes: ['seller:orders:preview', 'seller:keys:pull'],
});

describeRouteContract('GET /geo-attestations/{attestId}', t, {
  method: 'GET',
  // The auth hook answers before the id is looked up.
  url: () => `${API}/geo-attestations/gat_unchecked`,
  scopes: ['seller:orders:preview', 'seller:keys:pull'],
  otherCompanyUrl: async (_t, owner) => {
    const created = await call(t, { method: 'POST', url: `${API}/geo-attestations`, headers: owner.auth });
    return `${API}/geo-attestations/${created.body.data.attestId}`;
  },
});
