import type { Executor } from '../../db/database.js';

export interface RecordKey {
  companyId: string;
  environment: string;
  key: string;
}

const where = (k: RecordKey) =>
  ({ company_id: k.companyId, environment: k.environment, idempotency_key: k.key }) as const;

/** Claims the key for a first execution; false when a record already exists. */
export async function claim(ex: Executor, k: RecordKey, requestHash: string, now: number, leaseMs: number) {
  const result = await ex
    .insertInto('idempotency_records')
    .values({ ...where(k), request_hash: requestHash, locked_until: now + leaseMs, created_at: now })
    .onConflict((oc) => oc.columns(['company_id', 'environment', 'idempotency_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export function find(ex: Executor, k: RecordKey) {
  const w = where(k);
  return ex
    .selectFrom('idempotency_records')
    .selectAll()
    .where('company_id', '=', w.company_id)
    .where('environment', '=', w.environment)
    .where('idempotency_key', '=', w.idempotency_key)
    .executeTakeFirst();
}

/** Takes over an abandoned in-flight record; compare-and-set on its old lease. */
export async function retake(ex: Executor, k: RecordKey, oldLease: number, now: number, leaseMs: number) {
  const w = where(k);
  const result = await ex
    .updateTable('idempotency_records')
    .set({ locked_until: now + leaseMs })
    .where('company_id', '=', w.company_id)
    .where('environment', '=', w.environment)
    .where('idempotency_key', '=', w.idempotency_key)
    .where('locked_until', '=', oldLease)
    .where('status_code', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Stores the reply; `sealedBody` is always sealed (see idempotency.ts). */
export async function complete(
  ex: Executor,
  k: RecordKey,
  status: number,
  sealedBody: string,
  contentType: string | null,
) {
  const w = where(k);
  await ex
    .updateTable('idempotency_records')
    .set({
      status_code: status,
      response_body: sealedBody,
      content_type: contentType,
      response_sealed: 1,
    })
    .where('company_id', '=', w.company_id)
    .where('environment', '=', w.environment)
    .where('idempotency_key', '=', w.idempotency_key)
    .execute();
}

/** Forgets a record so the same key can run again (failed or expired execution). */
export async function release(ex: Executor, k: RecordKey, onlyCreatedBefore?: number) {
  const w = where(k);
  let query = ex
    .deleteFrom('idempotency_records')
    .where('company_id', '=', w.company_id)
    .where('environment', '=', w.environment)
    .where('idempotency_key', '=', w.idempotency_key);
  if (onlyCreatedBefore !== undefined) query = query.where('created_at', '<=', onlyCreatedBefore);
  await query.execute();
}
