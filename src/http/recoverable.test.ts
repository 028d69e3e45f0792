import { describe, expect, it } from 'vitest';
import { makeSeller } from '../../test/factories.js';
import { useTestApp } from '../../test/harness.js';
import { call, expectApiError } from '../../test/route-contract.js';
import { ERROR_CODES, type ErrorCode } from './errors.js';

const t = useTestApp();

describe('errors that do not contradict themselves', () => {
  it('calls no refusal recoverable that only a changed request can pass', () => {
    const changeTheRequest: ErrorCode[] = [
      'TAX_DECLARATION_REQUIRED',
      'SALES_COUNTRY_REQUIRED',
      'SALES_CHANNEL_REQUIRED',
      'EXPECTED_UNIT_PRICE_REQUIRED',
      'CATALOG_PRICE_MISMATCH',
      'WHOLESALE_PRICE_MISMATCH',
      'PRICE_COMMITMENT_INVALID',
      'SRP_MISMATCH_FOR_CURRENCY',
      'HOLD_MISMATCH',
      'HOLD_NOT_FOUND',
      'VALIDATION_FAILED',
      'QUANTITY_INVALID',
    ];
    expect(changeTheRequest.filter((code) => ERROR_CODES[code].recoverable)).toEqual([]);
    const waitAndRetry: ErrorCode[] = [
      'RATE_LIMIT_EXCEEDED',
      'NO_AVAILABLE_KEYS',
      'SOLD_OUT',
      'STORE_UNAVAILABLE',
    ];
    expect(waitAndRetry.filter((code) => !ERROR_CODES[code].recoverable)).toEqual([]);
  });

  it('TAX_DECLARATION_REQUIRED: not recoverable, and details.missing lists exactly what the message names', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/orders',
      headers: seller.auth,
      payload: { skuCode: 'SANDBOX-ALWAYS-001', quantity: 1, countryCode: 'US', orderReference: 'decl-1' },
    });
    expectApiError(result, 422, 'TAX_DECLARATION_REQUIRED');
    expect(result.body.recoverable).toBe(false);
    const named = result.body.message
      .replace(/^[^:]*: /, '')
      .replace(/\.$/, '')
      .split(', ');
    expect(named.length).toBeGreaterThan(2);
    expect(result.body.details.missing).toEqual(named);
    expect(result.body.details.issues.map((i: { field: string }) => i.field)).toEqual(named);
    for (const field of named) expect(result.body.hint).toContain(field);
  });
});
