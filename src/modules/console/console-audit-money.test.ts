import { describe, expect, it } from 'vitest';
import { LENIENT_POLICY, order, refund, setPolicy } from '../../../test/after-sale.js';
import { post, ref } from '../../../test/checkout.js';
import { consoleCall, consoleUser } from '../../../test/console.js';
import { useTestApp } from '../../../test/harness.js';
import { expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();

interface Row {
  at: string;
  actor: string;
  source: string;
  action: string;
  target: string | null;
  detail: Record<string, unknown>;
}

/** Money moved back to the buyer is audited wherever it is asked for, and the audit log narrows. */
describe('console audit log: money actions and filters', () => {
  it('records a refund through the API and one through the console, and a return and a replacement', async () => {
    const owner = await consoleUser(t, 'owner');
    const seller = owner.seller;
    const placed = await order(t, seller, { quantity: 4 });
    await setPolicy(t, placed.allocationId, LENIENT_POLICY);
    const [viaApi, viaConsole, returned, replaced] = placed.keyIds as [string, string, string, string];

    const apiRefund = await refund(t, seller, {
      type: 'refund',
      refundReference: ref('rf'),
      keyIds: [viaApi],
    });
    expect(apiRefund.status, JSON.stringify(apiRefund.body)).toBe(200);
    // The same reference again replays the refund: no second entry, no money moved twice.
    const replayed = await refund(t, seller, {
      type: 'refund',
      refundReference: apiRefund.body.data.refundReference,
      keyIds: [viaApi],
    });
    expect(replayed.status).toBe(200);
    const consoleRefund = await consoleCall(t, owner, 'POST', `/orders/${placed.orderId}/refunds`, {
      type: 'refund',
      refundReference: ref('rf'),
      keyIds: [viaConsole],
    });
    expect(consoleRefund.status, JSON.stringify(consoleRefund.body)).toBe(200);
    const back = await post(t, seller, '/keys/return', { keyIds: [returned], reason: 'buyer changed mind' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const swapped = await consoleCall(t, owner, 'POST', `/orders/${placed.orderId}/replacements`, {
      keyId: replaced,
      reason: 'does not activate',
    });
    expect(swapped.status, JSON.stringify(swapped.body)).toBe(200);

    const rows = (await consoleCall(t, owner, 'GET', '/audit?limit=200')).body.data as Row[];
    const refunds = rows.filter((row) => row.action === 'refund.created');
    expect(refunds).toHaveLength(2);
    expect(refunds.find((row) => row.target === apiRefund.body.data.refundId)).toMatchObject({
      actor: `key:${seller.keyId}`,
      source: 'api',
      detail: {
        environment: 'sandbox',
        keyIds: [viaApi],
        orderReferences: [placed.orderReference],
        amounts: [{ currencyCode: 'USD', grossCents: expect.any(Number) }],
      },
    });
    expect(refunds.find((row) => row.target === consoleRefund.body.data.refundId)).toMatchObject({
      actor: `user:${owner.email}`,
      source: 'console',
      detail: { keyIds: [viaConsole] },
    });
    expect(rows.find((row) => row.action === 'keys.returned')).toMatchObject({
      actor: `key:${seller.keyId}`,
      source: 'api',
      target: back.body.data.returnId,
      detail: { keyIds: [returned], reason: 'buyer changed mind' },
    });
    const replacement = rows.find((row) => row.action === 'key.replaced');
    expect(replacement).toMatchObject({
      actor: `user:${owner.email}`,
      source: 'console',
      target: swapped.body.data.replacementId,
      detail: { replacedKeyId: replaced, keyId: swapped.body.data.keyId },
    });
    // The new key's plaintext is in the replacement's answer only.
    expect(JSON.stringify(rows)).not.toContain(swapped.body.data.key);
  });

  it('narrows by actor, action and time span, and refuses a bad or unknown filter', async () => {
    const owner = await consoleUser(t, 'owner');
    const seller = owner.seller;
    const placed = await order(t, seller, { quantity: 2 });
    await setPolicy(t, placed.allocationId, LENIENT_POLICY);
    const start = new Date(t.ctx.clock.now()).toISOString();
    const [first, second] = placed.keyIds as [string, string];
    expect(
      (await refund(t, seller, { type: 'refund', refundReference: ref('rf'), keyIds: [first] })).status,
    ).toBe(200);
    expect(
      (
        await consoleCall(t, owner, 'POST', `/orders/${placed.orderId}/refunds`, {
          type: 'refund',
          refundReference: ref('rf'),
          keyIds: [second],
        })
      ).status,
    ).toBe(200);
    const audit = async (query: string) => {
      const reply = await consoleCall(t, owner, 'GET', `/audit?${query}`);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body.data as Row[];
    };

    const byAction = await audit('action=refund.created');
    expect(byAction.map((row) => row.source).sort()).toEqual(['api', 'console']);
    const byKey = await audit(`actor=${encodeURIComponent(`key:${seller.keyId}`)}`);
    expect(byKey.length).toBeGreaterThan(0);
    expect(byKey.every((row) => row.actor === `key:${seller.keyId}`)).toBe(true);
    const byUserAndAction = await audit(
      `actor=${encodeURIComponent(`user:${owner.email}`)}&action=refund.created`,
    );
    expect(byUserAndAction).toHaveLength(1);
    expect(byUserAndAction[0]!.detail.keyIds).toEqual([second]);
    expect(await audit(`action=refund.created&from=${encodeURIComponent(start)}`)).toHaveLength(2);
    expect(await audit(`action=refund.created&to=${encodeURIComponent(start)}`)).toHaveLength(0);
    // A one-millisecond span holds exactly the entries of that millisecond.
    const everything = await audit('limit=200');
    const oldest = everything[everything.length - 1]!;
    const afterOldest = new Date(Date.parse(oldest.at) + 1).toISOString();
    const span = await audit(`from=${encodeURIComponent(oldest.at)}&to=${encodeURIComponent(afterOldest)}`);
    expect(span.map((row) => row.at)).toEqual(
      everything.filter((row) => row.at === oldest.at).map((row) => row.at),
    );
    expect(span.map((row) => row.action)).toContain(oldest.action);

    // Another company's entries never match, whatever the filter.
    const stranger = await consoleUser(t, 'owner');
    const theirs = await consoleCall(t, stranger, 'GET', '/audit?action=refund.created');
    expect(theirs.body.data).toEqual([]);

    for (const bad of [
      'from=yesterday',
      'action=Refund Created',
      `from=${encodeURIComponent(start)}&to=${encodeURIComponent(start)}`,
      'actor=',
      'who=owner',
    ]) {
      expectApiError(await consoleCall(t, owner, 'GET', `/audit?${bad}`), 422, 'VALIDATION_FAILED');
    }
  });
});
