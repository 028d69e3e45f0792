import { describe, expect, it } from 'vitest';
import { order } from '../../../test/after-sale.js';
import { checkoutUrl } from '../../../test/checkout.js';
import { type ConsoleUser, consoleCall, consoleUser } from '../../../test/console.js';
import type { TestSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { productionOrder, productionScenario } from '../../../test/production.js';
import { call, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();

const search = (user: ConsoleUser, code: string) =>
  consoleCall(t, user, 'POST', '/orders/by-key-code', { code });

/** A production SKU of a fresh seller with imported keys, one of them sold; its owner in production. */
async function soldInProduction() {
  const s = await productionScenario(t, { keyCount: 3 });
  const placed = await call(t, {
    method: 'POST',
    url: checkoutUrl('/orders'),
    headers: s.seller.auth,
    payload: productionOrder(s),
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const [code] = placed.body.data.keys as string[];
  const owner = await consoleUser(t, 'owner', { company: { id: s.sellerId } } as TestSeller);
  expect((await consoleCall(t, owner, 'PUT', '/environment', { environment: 'production' })).status).toBe(
    200,
  );
  return { s, owner, code: code!, order: placed.body.data as { orderId: string; orderReference: string } };
}

/** The parts of a NOT_FOUND answer a caller can compare: everything but the request id. */
const answerOf = (reply: { status: number; body: { code: string; message: string; details?: unknown } }) => ({
  status: reply.status,
  code: reply.body.code,
  message: reply.body.message,
  details: reply.body.details,
});

describe('console: the order of a key code', () => {
  it('finds the order of an imported key, sold; the code is in no answer and no request log row', async () => {
    const { owner, code, order: placed, s } = await soldInProduction();
    const found = await search(owner, code);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.data).toMatchObject({ orderId: placed.orderId, orderReference: placed.orderReference });
    expect(found.raw).not.toContain(code);
    // Whitespace around a pasted code, and a code retyped in lower case, find it too.
    expect((await search(owner, `  ${code}\n`)).body.data.orderId).toBe(placed.orderId);
    expect((await search(owner, code.toLowerCase())).body.data.orderId).toBe(placed.orderId);
    // An imported key not sold yet belongs to no order.
    const unsold = s.keys.find((k) => k !== code)!;
    expectApiError(await search(owner, unsold), 404, 'NOT_FOUND');

    const logged = await t.ctx.db.selectFrom('request_log').selectAll().execute();
    expect(JSON.stringify(logged)).not.toContain(code);
    expect(JSON.stringify(logged).toLowerCase()).not.toContain(code.toLowerCase());
  });

  it('answers an unknown code and another company’s code the same NOT_FOUND', async () => {
    const mine = await soldInProduction();
    const theirs = await soldInProduction();
    const unknown = await search(mine.owner, 'NO-SUCH-KEY-0000');
    const foreign = await search(mine.owner, theirs.code);
    expectApiError(unknown, 404, 'NOT_FOUND');
    expect(answerOf(foreign)).toEqual(answerOf(unknown));
    expect(foreign.raw).not.toContain(theirs.code);
    // The other company still finds its own.
    expect((await search(theirs.owner, theirs.code)).body.data.orderId).toBe(theirs.order.orderId);
  });

  it('says so, with the order, when the key was sold in the company’s other environment', async () => {
    const { owner, code, order: placed } = await soldInProduction();
    await consoleCall(t, owner, 'PUT', '/environment', { environment: 'sandbox' });
    const elsewhere = await search(owner, code);
    expectApiError(elsewhere, 404, 'NOT_FOUND');
    expect(elsewhere.body.details).toMatchObject({ otherEnvironment: 'production' });
    const readableId = elsewhere.body.details.readableId as string;
    // And the order page of the sandbox names production for that order.
    const page = await consoleCall(t, owner, 'GET', `/orders/${readableId}`);
    expectApiError(page, 404, 'NOT_FOUND');
    expect(page.body.details).toEqual({ otherEnvironment: 'production' });
    await consoleCall(t, owner, 'PUT', '/environment', { environment: 'production' });
    expect((await consoleCall(t, owner, 'GET', `/orders/${readableId}`)).body.data.order.id).toBe(
      placed.orderId,
    );
  });

  it('finds a sandbox order by its minted key; refuses a body without a code or with other fields', async () => {
    const owner = await consoleUser(t, 'owner');
    const placed = await order(t, owner.seller, { quantity: 2 });
    expect((await search(owner, placed.keys[1]!)).body.data.orderId).toBe(placed.orderId);
    expectApiError(await search(owner, ''), 422, 'VALIDATION_FAILED');
    const long = `X${'Y'.repeat(400)}`;
    const refused = await search(owner, long);
    expectApiError(refused, 422, 'VALIDATION_FAILED');
    expect(refused.raw).not.toContain('YYYYYYYY');
    expectApiError(
      await consoleCall(t, owner, 'POST', '/orders/by-key-code', { code: placed.keys[0], colour: 'red' }),
      422,
      'VALIDATION_FAILED',
    );
    // Another company's page for the same order id is plain NOT_FOUND, naming no environment.
    const stranger = await consoleUser(t, 'owner');
    const page = await consoleCall(t, stranger, 'GET', `/orders/${placed.orderId}`);
    expectApiError(page, 404, 'NOT_FOUND');
    expect(page.body.details ?? {}).toEqual({});
  });
});
