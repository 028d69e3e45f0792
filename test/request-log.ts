import type { RequestLogTable } from '../src/modules/request-log/request-log.table.js';
import type { TestApp } from './harness.js';

const WHOAMI = '/api/seller/v1/whoami';

/** A request-log row as the recorder receives it: a 200 to `GET /whoami` with the given key. */
export const requestLogRow = (
  companyId: string,
  keyId: string,
  requestId: string,
  at: number,
): RequestLogTable => ({
  request_id: requestId,
  company_id: companyId,
  environment: 'sandbox',
  key_id: keyId,
  key_name: 'a key',
  method: 'GET',
  route: WHOAMI,
  path: WHOAMI,
  status: 200,
  error_code: null,
  error_body: null,
  duration_ms: 1,
  contract_date: '2026-01-01',
  rate_class: 'general',
  rate_bucket: 'read',
  at,
});

/** How many request-log rows the company has. */
export const storedRequestCount = async (t: TestApp, companyId: string) =>
  (
    await t.ctx.db
      .selectFrom('request_log')
      .select('request_id')
      .where('company_id', '=', companyId)
      .execute()
  ).length;
