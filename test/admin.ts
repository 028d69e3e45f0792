import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { randomBase32 } from '../src/lib/ids.js';
import { ADMIN_TOKEN, type TestApp } from './harness.js';

export const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** Calls the operator API and returns `data`, failing the test on an unexpected status. */
export async function admin(
  t: TestApp,
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
  status?: number,
) {
  const response = await t.adminApp.inject({
    method,
    url: `/admin/v1${url}`,
    headers: adminHeaders,
    payload: body as InjectOptions['payload'],
  });
  const expected = status ?? (method === 'POST' ? 201 : 200);
  expect(response.statusCode, response.body).toBe(expected);
  return response.json().data;
}

export interface Catalog {
  publisherId: string;
  sellerId: string;
  connectionId: string;
  productId: string;
  releaseId: string;
  skuId: string;
  skuCode: string;
}

/** A publisher, a connected production seller and one live product with one SKU, all through /admin/v1. */
export async function buildCatalog(
  t: TestApp,
  options: { catalogShareMode?: 'per_sku' | 'whole_catalog' } = {},
): Promise<Catalog> {
  const publisher = await admin(t, 'POST', '/companies', {
    name: `Pub ${randomBase32(4)}`,
    kind: 'publisher',
    country: 'US',
  });
  const seller = await admin(t, 'POST', '/companies', {
    name: `Shop ${randomBase32(4)}`,
    country: 'DE',
    productionAccess: true,
    apiAgreementSigned: true,
  });
  const connection = await admin(t, 'POST', '/connections', {
    sellerCompanyId: seller.id,
    publisherCompanyId: publisher.id,
    catalogShareMode: options.catalogShareMode ?? 'per_sku',
  });
  const slug = `game-${randomBase32(8)}`;
  const product = await admin(t, 'POST', '/products', {
    publisherCompanyId: publisher.id,
    name: 'Star Game',
    slug,
    status: 'active',
    shortDescription: { en: 'A game', de: 'Ein Spiel' },
  });
  const release = await admin(t, 'POST', `/products/${product.id}/releases`, {
    name: 'Standard',
    state: 'available',
  });
  const skuCode = `SKU-${randomBase32(8).toUpperCase()}`;
  const sku = await admin(t, 'POST', `/releases/${release.id}/skus`, { code: skuCode, platform: 'steam' });
  return {
    publisherId: publisher.id,
    sellerId: seller.id,
    connectionId: connection.id,
    productId: product.id,
    releaseId: release.id,
    skuId: sku.id,
    skuCode,
  };
}

export async function sellability(t: TestApp, sellerId: string, skuId: string) {
  const [result] = await admin(t, 'GET', `/companies/${sellerId}/sellability?skuIds=${skuId}`);
  return result;
}

export async function eventsFor(t: TestApp, companyId: string, eventType?: string) {
  let query = t.ctx.db
    .selectFrom('outbox_events')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('seq');
  if (eventType) query = query.where('event_type', '=', eventType);
  return (await query.execute()).map((e) => ({ ...e, data: JSON.parse(e.payload) }));
}

export async function changesFor(t: TestApp, companyId: string) {
  const rows = await t.ctx.db
    .selectFrom('catalog_changes')
    .selectAll()
    .where('seller_company_id', '=', companyId)
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({
    productId: r.product_id,
    type: r.type,
    changedFields: JSON.parse(r.changed_fields),
  }));
}
