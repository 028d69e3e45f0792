import { compiledOnce } from '../../db/compiled-once.js';
import type { Executor } from '../../db/database.js';
import { isPostgres } from '../../db/dialect.js';
import { claimTogether, completeTogether } from './batched.pg.js';
import type { RecordKey } from './record-key.js';

const where = (k: RecordKey) =>
  ({ company_id: k.companyId, environment: k.environment, idempotency_key: k.key }) as const;

const claimKey = compiledOnce(
  ['company_id', 'environment', 'idempotency_key', 'request_hash', 'locked_until', 'created_at'],
  (db, v) =>
    db
      .insertInto('idempotency_records')
      .values({ ...v, locked_until: v.locked_until as never, created_at: v.created_at as never })
      .onConflict((oc) => oc.columns(['company_id', 'environment', 'idempotency_key']).doNothing()),
);

/** Claims the key for a first execution; false when a record already exists. */
export async function claim(ex: Executor, k: RecordKey, requestHash: string, now: number, leaseMs: number) {
  if (isPostgres(ex))
    return claimTogether(ex, { k, requestHash, lockedUntil: now + leaseMs, createdAt: now });
  const result = await claimKey(ex, {
    ...where(k),
    request_hash: requestHash,
    locked_until: now + leaseMs,
    created_at: now,
  });
  return Number(result.numAffectedRows ?? 0n) === 1;
}

const recordByKey = compiledOnce(['company_id', 'environment', 'idempotency_key'], (db, v) =>
  db
    .selectFrom('idempotency_records')
    .selectAll()
    .where('company_id', '=', v.company_id)
    .where('environment', '=', v.environment)
    .where('idempotency_key', '=', v.idempotency_key),
);

export async function find(ex: Executor, k: RecordKey) {
  return (await recordByKey(ex, where(k))).rows[0];
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

const completeRecord = compiledOnce(
  ['company_id', 'environment', 'idempotency_key', 'status_code', 'response_body', 'content_type'],
  (db, v) =>
    db
      .updateTable('idempotency_records')
      .set({
        status_code: v.status_code as never,
        response_body: v.response_body,
        content_type: v.content_type,
        response_sealed: 1,
      })
      .where('company_id', '=', v.company_id)
      .where('environment', '=', v.environment)
      .where('idempotency_key', '=', v.idempotency_key),
);

/** Stores the reply; `sealedBody` is always sealed (see idempotency.ts). */
export async function complete(
  ex: Executor,
  k: RecordKey,
  status: number,
  sealedBody: string,
  contentType: string | null,
) {
  if (isPostgres(ex)) return completeTogether(ex, { k, status, sealedBody, contentType });
  await completeRecord(ex, {
    ...where(k),
    status_code: status,
    response_body: sealedBody,
    content_type: contentType,
  });
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
