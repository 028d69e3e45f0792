import { describe, expect, it } from 'vitest';
import { consoleCall, consoleUser } from '../../test/console.js';
import { makeSeller } from '../../test/factories.js';
import { type TestApp, useTestApp } from '../../test/harness.js';
import { call } from '../../test/route-contract.js';
import type { RouteEntry } from './route-table.js';

const PROBE = '/api/seller/v1/test-secret-probe';

const t = useTestApp({}, (app) => {
  // A secret route whose handler asks for caching: the declaration wins.
  app.get(PROBE, { config: { auth: 'none', carriesSecret: true } }, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=600').header('etag', '"probe"').send({ token: 'x' }),
  );
});

/**
 * Every route whose answer carries a secret, by listener. A route added with a secret must be
 * added here and declare `carriesSecret`; the two lists are compared both ways below.
 */
const SECRET_ROUTES = {
  seller: [
    // API key tokens
    'POST /api/seller/v1/keys',
    'POST /api/seller/v1/keys/:id/rotate',
    // game keys
    'POST /api/seller/v1/orders',
    'POST /api/seller/v1/orders/bulk',
    'POST /api/seller/v1/orders/:orderId/fulfill',
    'POST /api/seller/v1/orders/recover-keys',
    'POST /api/seller/v1/orders/commit',
    'POST /api/seller/v1/keys/pull',
    'POST /api/seller/v1/keys/export',
    'POST /api/seller/v1/keys/replace',
    // redemption links (they open the buyer's keys) and the page behind them
    'POST /api/seller/v1/orders/:orderReference/redemption/revoke',
    'POST /api/seller/v1/orders/:orderReference/redemption/regenerate',
    'GET /redeem/:token',
    'POST /redeem/:token/reveal',
    // webhook signing secrets
    'POST /api/seller/v1/webhooks',
    'PATCH /api/seller/v1/webhooks/:id',
    // signed download links and the downloads behind them
    'GET /api/seller/v1/catalog/exports/:exportId',
    'GET /api/seller/v1/catalog/exports/:exportId/artifact',
    'GET /api/seller/v1/reports/:reportId',
    'GET /api/seller/v1/reports/:reportId/artifact',
    // the console: CSRF token, TOTP secret, API key tokens, webhook secrets, invite links,
    // a replacement game key, a report's download link
    'GET /console/api/session',
    'PUT /console/api/environment',
    'POST /console/api/totp/start',
    'POST /console/api/totp/confirm',
    'POST /console/api/totp/recovery-codes',
    'POST /console/api/keys',
    'POST /console/api/keys/:id/rotate',
    'POST /console/api/keys/:id/roll',
    'POST /console/api/webhooks',
    'PATCH /console/api/webhooks/:id',
    'POST /console/api/team/invites',
    'POST /console/api/orders/:id/replacements',
    'GET /console/api/finance/reports/:reportId',
  ],
  operator: ['POST /admin/v1/companies/:id/keys'],
};

const nameOf = (route: RouteEntry) => `${route.method} ${route.url}`;
/** HEAD twins of GET routes share their declaration; the probe route belongs to this file. */
const tableOf = (app: TestApp['app']) =>
  app.routeTable.filter((route) => route.method !== 'HEAD' && route.url !== PROBE);

interface SchemaNode {
  type?: unknown;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
}

const isType = (node: SchemaNode, type: string): boolean =>
  node.type === type || [...(node.anyOf ?? []), ...(node.oneOf ?? [])].some((n) => isType(n, type));

/** A field that by its name and type holds a secret: a token, a signing secret, a game key, a link. */
function isSecretField(name: string, node: SchemaNode, parent: string): boolean {
  if (['secret', 'token', 'csrfToken', 'recoveryCodes', 'downloadUrl'].includes(name)) return true;
  if (name === 'key') return isType(node, 'string');
  if (name === 'keys') return isType(node, 'array') && isType(node.items ?? {}, 'string');
  return name === 'url' && parent === 'redemption';
}

function secretFields(node: SchemaNode | undefined, parent = '', found: string[] = []): string[] {
  if (!node || typeof node !== 'object') return found;
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    if (isSecretField(name, child, parent)) found.push(name);
    secretFields(child, name, found);
  }
  for (const child of [node.items, ...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])])
    secretFields(child, parent, found);
  return found;
}

const successSchemas = (route: RouteEntry) =>
  Object.entries((route.schema?.response ?? {}) as Record<string, SchemaNode>)
    .filter(([status]) => status.startsWith('2'))
    .map(([, schema]) => schema);

/** A request any route can take: path parameters filled, no credentials, no body. */
const bareUrl = (url: string) =>
  url.replace(/:[A-Za-z]+/g, '0190d0a0-0000-7000-8000-000000000000').replace('*', 'x');

describe('the route table declares every answer that carries a secret', () => {
  it('marks exactly the listed routes with carriesSecret, on the seller (and console) and operator listeners', () => {
    const marked = (app: TestApp['app']) =>
      tableOf(app)
        .filter((route) => route.config.carriesSecret)
        .map(nameOf)
        .sort();
    expect(marked(t.app)).toEqual([...SECRET_ROUTES.seller].sort());
    expect(marked(t.adminApp)).toEqual([...SECRET_ROUTES.operator].sort());
  });

  it('marks every route whose documented success answer has a secret field', () => {
    const withSecretFields = [...tableOf(t.app), ...tableOf(t.adminApp)].filter((route) =>
      successSchemas(route).some((schema) => secretFields(schema).length > 0),
    );
    // The detector sees the fields it is meant to: a key's token, game keys, a signing secret.
    expect(withSecretFields.map(nameOf)).toEqual(
      expect.arrayContaining([
        'POST /api/seller/v1/keys',
        'POST /api/seller/v1/orders',
        'POST /api/seller/v1/webhooks',
        'POST /admin/v1/companies/:id/keys',
      ]),
    );
    expect(withSecretFields.filter((route) => !route.config.carriesSecret).map(nameOf)).toEqual([]);
  });

  it('answers every route of every listener with nosniff, and no-store where authenticated or secret', async () => {
    const wrong: string[] = [];
    for (const [app, listener] of [
      [t.app, 'seller'],
      [t.adminApp, 'operator'],
    ] as const) {
      for (const route of app.routeTable) {
        if (route.url === PROBE) continue;
        const answer = await app.inject({ method: route.method as 'GET', url: bareUrl(route.url) });
        const name = `${listener} ${nameOf(route)} (${answer.statusCode})`;
        if (answer.headers['x-content-type-options'] !== 'nosniff') wrong.push(`${name}: no nosniff`);
        const mustNotStore =
          route.config.carriesSecret ||
          route.config.auth === 'seller' ||
          route.config.auth === 'admin' ||
          route.url.startsWith('/console/api/');
        if (mustNotStore && answer.headers['cache-control'] !== 'no-store')
          wrong.push(`${name}: cache-control ${answer.headers['cache-control']}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps a secret route no-store and without ETag even when its handler asks for caching', async () => {
    const answer = await call(t, { method: 'GET', url: PROBE });
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers.etag).toBeUndefined();
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('secret answers as a client receives them', () => {
  it('a new API key and a console session (its CSRF token) and key are no-store and nosniff', async () => {
    const seller = await makeSeller(t);
    const created = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/keys',
      headers: seller.auth,
      payload: { name: 'shop' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.key).toEqual(expect.any(String));
    const user = await consoleUser(t, 'owner');
    const session = await consoleCall(t, user, 'GET', '/session');
    expect(session.body.data.csrfToken).toEqual(expect.any(String));
    const consoleKey = await consoleCall(t, user, 'POST', '/keys', {
      name: 'web shop',
      scopes: ['seller:products:read'],
      allowedIps: [],
    });
    expect(consoleKey.status).toBe(201);
    for (const answer of [created, session, consoleKey]) {
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('leaves the catalog snapshot its own caching and revalidation, and 404s and errors nosniff', async () => {
    const seller = await makeSeller(t);
    const url = '/api/seller/v1/catalog/snapshot';
    const first = await call(t, { method: 'GET', url, headers: seller.auth });
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe(
      'private, max-age=300, s-maxage=300, stale-while-revalidate=600',
    );
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    const etag = String(first.headers.etag);
    const again = await call(t, { method: 'GET', url, headers: { ...seller.auth, 'if-none-match': etag } });
    expect(again.status).toBe(304);
    for (const app of [t.app, t.adminApp]) {
      const missing = await app.inject({ method: 'GET', url: '/no-such-page' });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['x-content-type-options']).toBe('nosniff');
      expect(missing.headers['cache-control']).toBe('no-store');
    }
  });
});
