import type { FastifyInstance } from 'fastify';
import type { TypedApp } from '../../http/typed-app.js';
import { renderDocsPage } from './docs-page.js';

export const OPENAPI_PATH = '/api/seller/v1/openapi.json';

/** GET /api/seller/v1/openapi.json: the document generated from the route schemas. */
export function registerOpenApiRoute(seller: TypedApp, document: () => unknown): void {
  seller.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () => document());
}

/** GET /docs: a readable page of the same document, with an anchor per error code. */
export function registerDocsPage(app: FastifyInstance, document: () => unknown): void {
  let page: string | undefined;
  app.get('/docs', { config: { auth: 'none' }, schema: { hide: true } }, async (_request, reply) => {
    page ??= renderDocsPage(document() as Parameters<typeof renderDocsPage>[0], OPENAPI_PATH);
    return reply.type('text/html; charset=utf-8').send(page);
  });
}
