import { describe, it } from 'vitest';
import { post, ref } from '../../../test/checkout.js';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();

/** POST /orders/cancel takes a reservation or a pre-order reference: exactly one of them. */
describe('POST /orders/cancel', () => {
  it('refuses a body naming neither or both, before anything is looked up', async () => {
    const seller = await makeSeller(t);
    const cancel = (body: Record<string, unknown>) =>
      post(t, seller, '/orders/cancel', body, { 'idempotency-key': ref('idem') });
    expectApiError(await cancel({}), 422, 'VALIDATION_FAILED');
    expectApiError(
      await cancel({ reservationId: '01a20b4d-68ce-7000-9ac1-98615853168c', orderReference: 'ord-1' }),
      422,
      'VALIDATION_FAILED',
    );
    expectApiError(await cancel({ orderReference: 'never-placed' }), 404, 'NOT_FOUND');
    expectApiError(
      await cancel({ reservationId: '01a20b4d-68ce-7000-9ac1-98615853168c' }),
      410,
      'RESERVATION_GONE',
    );
  });
});
