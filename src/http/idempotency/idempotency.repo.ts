import { sql } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Executor } from '../../db/database.js';
import { isPostgres, lockRows } from '../../db/dialect.js';
import { claimTogether, completeTogether } from './batched.pg.js';
import type { Claim, RecordKey } from './record-key.js';

const where = (k: RecordKey) =>
  ({ company_id: k.companyId, environment: k.environment, idempotency_key: k.key }) as const;

const claimKey = compiledOnce(
  ['company_id', 'environment', 'idempotency_key', 'request_hash', 'locked_until', 'created_at', 'owner'],
  (db, v) =>
    db
      .insertInto('idempotency_records')
      .values({ ...v, locked_until: v.locked_until as never, created_at: v.created_at as never })
      .onConflict((oc) => oc.columns(['company_id', 'environment', 'idempotency_key']).doNothing()),
);

/** Claims the key for a first execution by `c.owner`; false when a record already exists. */
export async function claim(ex: Executor, c: Claim, requestHash: string, now: number) {
  if (isPostgres(ex))
    return claimTogether(ex, {
      k: c,
      requestHash,
      lockedUntil: c.lockedUntil,
      createdAt: now,
      owner: c.owner,
    });
  const result = await claimKey(ex, {
    ...where(c),
    request_hash: requestHash,
    locked_until: c.lockedUntil,
    created_at: now,
    owner: c.owner,
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

/** Takes over an abandoned in-flight record for `c.owner`; compare-and-set on its old lease and owner. */
export async function retake(ex: Executor, c: Claim, old: { locked_until: number; owner: string | null }) {
  const w = where(c);
  const result = await ex
    .updateTable('idempotency_records')
    .set({ locked_until: c.lockedUntil, owner: c.owner })
    .where('company_id', '=', w.company_id)
    .where('environment', '=', w.environment)
    .where('idempotency_key', '=', w.idempotency_key)
    .where('locked_until', '=', old.locked_until)
    .where((eb) => (old.owner === null ? eb('owner', 'is', null) : eb('owner', '=', old.owner)))
    .where('status_code', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A claim as the fence's statement places it: one parameter per column. */
export interface HeldClaim {
  company_id: string;
  environment: string;
  idempotency_key: string;
  owner: string;
  locked_until: number;
}

export const heldClaimOf = (c: Claim): HeldClaim => ({
  ...where(c),
  owner: c.owner,
  locked_until: c.lockedUntil,
});

/**
 * PostgreSQL: the claim's row while `c` still holds it (the owner and lease it was claimed or
 * retaken with, no reply stored), locked until the statement's transaction ends. A retake that
 * comes first leaves no row to find; one that comes after waits for the commit.
 */
export const claimHeldBy = (c: HeldClaim) => sql`select 1 from idempotency_records
    where company_id = ${c.company_id} and environment = ${c.environment}
      and idempotency_key = ${c.idempotency_key} and owner = ${c.owner}
      and locked_until = ${c.locked_until}::bigint and status_code is null
    for no key update`;

const heldClaim = compiledOnce(
  ['company_id', 'environment', 'idempotency_key', 'owner', 'locked_until'],
  (db, v) => {
    const query = db
      .selectFrom('idempotency_records')
      .select('owner')
      .where('company_id', '=', v.company_id)
      .where('environment', '=', v.environment)
      .where('idempotency_key', '=', v.idempotency_key)
      .where('owner', '=', v.owner)
      .where('locked_until', '=', v.locked_until as never)
      .where('status_code', 'is', null);
    return lockRows(db, query);
  },
);

/** Inside a transaction: whether `c` still holds its claim, which then stays so until the transaction ends. */
export async function holdClaim(ex: Executor, c: Claim): Promise<boolean> {
  return (await heldClaim(ex, heldClaimOf(c))).rows.length === 1;
}

const completeRecord = compiledOnce(
  ['company_id', 'environment', 'idempotency_key', 'status_code', 'response_body', 'content_type', 'owner'],
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
      .where('idempotency_key', '=', v.idempotency_key)
      .where('owner', '=', v.owner),
);

/**
 * Stores the reply of the claim; `sealedBody` is always sealed (see idempotency.ts). Only while
 * the claim is still `c.owner`'s: a claim taken over meanwhile keeps its new execution's reply.
 */
export async function complete(
  ex: Executor,
  c: Claim,
  status: number,
  sealedBody: string,
  contentType: string | null,
) {
  if (isPostgres(ex)) return completeTogether(ex, { k: c, status, sealedBody, contentType, owner: c.owner });
  await completeRecord(ex, {
    ...where(c),
    status_code: status,
    response_body: sealedBody,
    content_type: contentType,
    owner: c.owner,
  });
}

/** Gives up a claim so the same key can run again (a transient failure): only while it is still this one. */
export async function releaseClaim(ex: Executor, c: Claim) {
  const w = where(c);
  await ex
    .deleteFrom('idempotency_records')
    .where('company_id', '=', w.company_id)
    .where('environment', '=', w.environment)
    .where('idempotency_key', '=', w.idempotency_key)
    .where('owner', '=', c.owner)
    .where('locked_until', '=', c.lockedUntil)
    .where('status_code', 'is', null)
    .execute();
}

/** Forgets an expired record so the same key can run again. */
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
