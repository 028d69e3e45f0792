import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { call } from '../../../test/route-contract.js';
import { ERROR_CODES } from '../../http/errors.js';
import { SIMULATE_VALUES } from '../../http/simulate.js';
import { MAGIC_SKUS } from '../sandbox/fixtures.js';

const t = useTestApp();

describe('OpenAPI and docs', () => {
  it('serves an OpenAPI 3.1 document of every seller route with its error responses', async () => {
    const result = await call(t, { method: 'GET', url: '/api/seller/v1/openapi.json' });
    expect(result.status).toBe(200);
    const doc = result.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/seller/v1/whoami',
        '/api/seller/v1/whoami-ip',
        '/api/seller/v1/health',
        '/api/seller/v1/keys',
        '/api/seller/v1/keys/{id}/rotate',
      ]),
    );
    expect(Object.keys(doc.paths).some((p: string) => p.startsWith('/admin'))).toBe(false);
    expect(doc.components.schemas.ApiError.properties).toHaveProperty('doc_url');
    expect(Object.keys(doc.paths['/api/seller/v1/keys'].post.responses)).toEqual(
      expect.arrayContaining(['201', '401', '403', '422', '429']),
    );
  });

  it('points a newcomer to the console and to the command that lets its first owner in', async () => {
    const page = (await call(t, { method: 'GET', url: '/docs' })).raw;
    expect(page).toContain('{{origin}}/console');
    expect(page).toContain(
      'npx sdapi users invite --company \\u003cid> --email you@example.com --role owner',
    );
  });

  it('serves the reference page over the document, with the guides and an anchor for every error code', async () => {
    const result = await call(t, { method: 'GET', url: '/docs' });
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toContain('text/html');
    expect(result.headers['content-security-policy']).toContain("default-src 'self'");
    expect(result.raw).toContain('<script src="/docs/assets/redoc.standalone.js">');
    const embedded = result.raw.match(
      /<script id="openapi-document" type="application\/json">(.*?)<\/script>/s,
    )?.[1];
    const doc = JSON.parse(embedded ?? 'null');
    expect(Object.keys(doc.paths)).toContain('/api/seller/v1/orders');
    const guides: string = doc.info.description;
    for (const heading of ['Authentication and scopes', 'IP allowlists', 'Idempotency', 'Rate limits']) {
      expect(guides).toContain(`# ${heading}`);
    }
    for (const heading of ['Contract dates', 'Sandbox', 'Webhooks and signatures', 'Errors']) {
      expect(guides).toContain(`# ${heading}`);
    }
    for (const code of Object.keys(ERROR_CODES)) expect(guides).toContain(`id="error-${code}"`);
    for (const sku of MAGIC_SKUS) expect(guides).toContain(`<code>${sku.code}</code>`);
    for (const value of SIMULATE_VALUES) expect(guides).toContain(`<code>${value}</code>`);
  });

  it('serves the reference UI bundle itself, pointing nowhere else', async () => {
    const result = await call(t, { method: 'GET', url: '/docs/assets/redoc.standalone.js' });
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toContain('javascript');
    expect(result.raw).toContain('Redoc');
    expect(result.raw).not.toContain('cdn.redoc.ly');
  });

  it('points doc_url of errors at the served docs', async () => {
    const result = await call(t, { method: 'GET', url: '/api/seller/v1/whoami' });
    expect(result.body.doc_url).toBe(`${t.config.publicUrl}/docs#error-UNAUTHORIZED`);
  });
});
