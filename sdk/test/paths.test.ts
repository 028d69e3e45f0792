import createClient from 'openapi-fetch';
import { describe, expectTypeOf, it } from 'vitest';
import { createSdapiClient } from '../src/index.js';
import type { Relaxed } from '../src/paths.js';

/** An operation as openapi-typescript writes one that requires `Idempotency-Key`. */
interface Orders {
  parameters: { query?: never; header?: never; path?: never; cookie?: never };
  get?: never;
  put?: never;
  post: {
    parameters: { query?: never; header: { 'Idempotency-Key': string }; path?: never; cookie?: never };
    requestBody: { content: { 'application/json': { quantity: number } } };
    responses: {
      200: { headers: Record<string, unknown>; content: { 'application/json': { ok: boolean } } };
    };
  };
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
}
type Document = { '/orders': Orders };

describe('the SDK view of the document', () => {
  // Checked by the type-checker (npm run typecheck): the relaxed call compiles, the strict one must not.
  it('never requires Idempotency-Key of the caller: the client sends one on every mutation', () => {
    const relaxed = createClient<Relaxed<Document>>({ baseUrl: 'http://127.0.0.1:9' });
    const strict = createClient<Document>({ baseUrl: 'http://127.0.0.1:9' });
    // @ts-expect-error: the document alone demands the header parameter
    const withoutHeader = () => strict.POST('/orders', { body: { quantity: 1 } });
    const relaxedCall = () => relaxed.POST('/orders', { body: { quantity: 1 } });
    expectTypeOf(relaxedCall).returns.resolves.toHaveProperty('data');
    expectTypeOf(withoutHeader).toBeFunction();
  });

  it('types each answer: a 204 resolves to undefined, a body to its schema', () => {
    const api = createSdapiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'service_sk_sbx_x' });
    const remove = () => api.DELETE('/api/seller/v1/webhooks/{id}', { params: { path: { id: 'w' } } });
    expectTypeOf(remove).returns.resolves.toEqualTypeOf<undefined>();
    const whoami = () => api.GET('/api/seller/v1/whoami');
    expectTypeOf(whoami).returns.resolves.toHaveProperty('data');
  });
});
