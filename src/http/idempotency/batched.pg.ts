import { sql } from 'kysely';
import { preparedPerShape } from '../../db/compiled-once.js';
import type { Db, Executor } from '../../db/database.js';
import { ensureDays } from '../../db/day-partitions.js';
import { batcher } from '../../lib/batcher.js';
import { type RecordKey, recordKeyId } from './record-key.js';

/**
 * PostgreSQL: the claims and the stored replies of concurrent requests, each kind in one
 * statement per batch (`batcher`): every POST with an Idempotency-Key writes twice, and on
 * this path a round trip costs more than the row. One claim per key and batch: a key sent
 * twice in one batch is claimed by its first request only.
 *
 * The table is partitioned by day of `created_at` (db/day-partitions.ts), and PostgreSQL
 * enforces a unique key only inside each partition: two claims of one key on either side of
 * midnight would both succeed, as would a claim the day after a live record. So a claim locks
 * its keys first (a transaction lock on a hash of the key, in hash order against deadlocks),
 * then inserts only the keys no partition holds: under the lock, the insert's snapshot, taken
 * after the lock was granted, sees every record of that key an earlier holder committed.
 */

export interface ClaimRequest {
  k: RecordKey;
  requestHash: string;
  lockedUntil: number;
  createdAt: number;
  owner: string;
}

export interface StoredReply {
  k: RecordKey;
  status: number;
  sealedBody: string;
  contentType: string | null;
  owner: string;
}

type Keys = { companyIds: string[]; environments: string[]; keys: string[] };

/** Waits for the transaction locks of a batch's keys; a hash two keys share only makes them wait in turn. */
const lockStatement = preparedPerShape(
  (_shape: null, v: Keys) => sql<{ locked: string }>`
    select count(pg_advisory_xact_lock(h)) as locked from (
      select distinct hashtextextended(c || chr(1) || e || chr(1) || k, 0) as h
      from unnest(${v.companyIds}::text[], ${v.environments}::text[], ${v.keys}::text[]) as u(c, e, k)
      order by h) as ordered`,
);

/** Every claim of a batch in one insert, of the keys no record holds; those come back. */
const claimStatement = preparedPerShape(
  (
    _shape: null,
    v: {
      companyIds: string[];
      environments: string[];
      keys: string[];
      requestHashes: string[];
      lockedUntils: number[];
      createdAts: number[];
      owners: string[];
    },
  ) => sql<{ company_id: string; environment: string; idempotency_key: string }>`
    insert into idempotency_records
      (company_id, environment, idempotency_key, request_hash, locked_until, created_at, owner)
    select * from unnest(${v.companyIds}::text[], ${v.environments}::text[], ${v.keys}::text[],
      ${v.requestHashes}::text[], ${v.lockedUntils}::bigint[], ${v.createdAts}::bigint[], ${v.owners}::text[])
      as u(company_id, environment, idempotency_key, request_hash, locked_until, created_at, owner)
    where not exists (select 1 from idempotency_records r where r.company_id = u.company_id
      and r.environment = u.environment and r.idempotency_key = u.idempotency_key)
    returning company_id, environment, idempotency_key`,
  { lastOfTransaction: true },
);

/** Every reply of a batch stored in one update, planned at each execution against the table as it is. */
const completeStatement = preparedPerShape(
  (
    _shape: null,
    v: {
      companyIds: string[];
      environments: string[];
      keys: string[];
      statusCodes: number[];
      bodies: string[];
      contentTypes: (string | null)[];
      owners: string[];
    },
  ) => sql`
    update idempotency_records r set status_code = v.status_code, response_body = v.response_body,
      content_type = v.content_type, response_sealed = 1
    from unnest(${v.companyIds}::text[], ${v.environments}::text[], ${v.keys}::text[],
      ${v.statusCodes}::integer[], ${v.bodies}::text[], ${v.contentTypes}::text[], ${v.owners}::text[])
      as v(company_id, environment, idempotency_key, status_code, response_body, content_type, owner)
    where r.company_id = v.company_id and r.environment = v.environment
      and r.idempotency_key = v.idempotency_key and r.owner = v.owner`,
  { planEachTime: true },
);

async function claimAll(db: Db, claims: ClaimRequest[]): Promise<boolean[]> {
  const firsts = new Map<string, number>();
  claims.forEach((c, i) => {
    if (!firsts.has(recordKeyId(c.k))) firsts.set(recordKeyId(c.k), i);
  });
  const unique = [...firsts.values()].map((i) => claims[i]!);
  const column = <T>(pick: (c: ClaimRequest) => T) => unique.map(pick);
  const keys: Keys = {
    companyIds: column((c) => c.k.companyId),
    environments: column((c) => c.k.environment),
    keys: column((c) => c.k.key),
  };
  await ensureDays(
    db,
    'idempotency_records',
    column((c) => c.createdAt),
  );
  const { rows } = await db.transaction().execute(async (trx) => {
    await lockStatement(trx, null, keys);
    return claimStatement(trx, null, {
      ...keys,
      requestHashes: column((c) => c.requestHash),
      lockedUntils: column((c) => c.lockedUntil),
      createdAts: column((c) => c.createdAt),
      owners: column((c) => c.owner),
    });
  });
  const claimed = new Set(
    rows.map((r) =>
      recordKeyId({ companyId: r.company_id, environment: r.environment, key: r.idempotency_key }),
    ),
  );
  return claims.map((c, i) => firsts.get(recordKeyId(c.k)) === i && claimed.has(recordKeyId(c.k)));
}

async function completeAll(ex: Executor, replies: StoredReply[]): Promise<undefined[]> {
  const column = <T>(pick: (r: StoredReply) => T) => replies.map(pick);
  await completeStatement(ex, null, {
    companyIds: column((r) => r.k.companyId),
    environments: column((r) => r.k.environment),
    keys: column((r) => r.k.key),
    statusCodes: column((r) => r.status),
    bodies: column((r) => r.sealedBody),
    contentTypes: column((r) => r.contentType),
    owners: column((r) => r.owner),
  });
  return replies.map(() => undefined);
}

/** One batcher of each kind per database handle. */
function perExecutor<E extends Executor, I, O>(run: (ex: E, items: I[]) => Promise<O[]>) {
  const byExecutor = new WeakMap<E, (item: I) => Promise<O>>();
  return (ex: E, item: I): Promise<O> => {
    let submit = byExecutor.get(ex);
    if (!submit) {
      submit = batcher((items: I[]) => run(ex, items));
      byExecutor.set(ex, submit);
    }
    return submit(item);
  };
}

/** Claims the key for a first execution; false when a record already exists. */
export const claimTogether = perExecutor(claimAll);

/** Stores the reply of a claimed key. */
export const completeTogether = perExecutor(completeAll);
