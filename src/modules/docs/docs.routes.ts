import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import type { TypedApp } from '../../http/typed-app.js';
import { DOCS_CONTENT_SECURITY_POLICY, REDOC_ASSET_PATH, renderDocsPage } from './docs-page.js';

export const OPENAPI_PATH = '/api/seller/v1/openapi.json';

/** GET /api/seller/v1/openapi.json: the document generated from the route schemas. */
export function registerOpenApiRoute(seller: TypedApp, document: () => unknown): void {
  seller.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () => document());
}

const require = createRequire(import.meta.url);

/**
 * Redoc's footer badge loads its logo from Redocly's CDN; the served bundle points it nowhere
 * (the image then hides itself; the badge's text stays). The browser test fails on any
 * request leaving the service, so an upgrade that moves this string is noticed.
 */
const CDN_LOGO = 'src:"https://cdn.redoc.ly/redoc/logo-mini.svg"';
const redocBundle = () =>
  Buffer.from(
    readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8').replace(CDN_LOGO, 'src:""'),
  );
const REDOC_VERSION = (require('redoc/package.json') as { version: string }).version;

/**
 * GET /docs: the API reference (Redoc over the seller document, with the guides), and the Redoc
 * bundle it loads, read from the installed package once; nothing is fetched from elsewhere.
 */
export function registerDocsPage(app: FastifyInstance, document: () => unknown): void {
  let page: string | undefined;
  app.get('/docs', { config: { auth: 'none' }, schema: { hide: true } }, async (_request, reply) => {
    page ??= renderDocsPage(document() as Parameters<typeof renderDocsPage>[0], OPENAPI_PATH);
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', DOCS_CONTENT_SECURITY_POLICY)
      .send(page);
  });

  let bundle: Buffer | undefined;
  app.get(REDOC_ASSET_PATH, { config: { auth: 'none' }, schema: { hide: true } }, async (_request, reply) => {
    bundle ??= redocBundle();
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .header('etag', `"redoc-${REDOC_VERSION}"`)
      .send(bundle);
  });
}
