import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { call } from '../../../test/route-contract.js';
import { ERROR_CODES } from '../../http/errors.js';

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

  it('serves a docs page with an anchor for every error code', async () => {
    const result = await call(t, { method: 'GET', url: '/docs' });
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toContain('text/html');
    for (const code of Object.keys(ERROR_CODES)) expect(result.raw).toContain(`id="error-${code}"`);
  });

  it('points doc_url of errors at the served docs', async () => {
    const result = await call(t, { method: 'GET', url: '/api/seller/v1/whoami' });
    expect(result.body.doc_url).toBe(`${t.config.publicUrl}/docs#error-UNAUTHORIZED`);
  });
});
