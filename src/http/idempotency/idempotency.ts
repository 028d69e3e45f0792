import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { sha256Hex } from '../../lib/crypto.js';
import { fail } from '../errors.js';
import { MAX_JSON_DEPTH, tooDeep } from '../input-limits.js';
import { principalOf } from '../request-context.js';
import * as repo from './idempotency.repo.js';

export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How long a first execution may run before its claim counts as abandoned. */
const LEASE_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyRecord: repo.RecordKey | null;
  }
}

/**
 * Stable JSON: the same body with keys in another order is the same request. The body parser
 * already refuses bodies nested deeper than MAX_JSON_DEPTH; the bound here keeps the recursion
 * finite for any other caller as well.
 */
function canonical(value: unknown, depth = 0): string {
  if (depth > MAX_JSON_DEPTH) throw tooDeep();
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, depth + 1)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v, depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const requestHashOf = (request: FastifyRequest) =>
  sha256Hex(`${request.method} ${request.url.split('?')[0]}\n${canonical(request.body ?? null)}`);

type CompletedRecord = Pick<
  NonNullable<Awaited<ReturnType<typeof repo.find>>>,
  | 'request_hash'
  | 'status_code'
  | 'response_body'
  | 'response_sealed'
  | 'content_type'
  | 'created_at'
  | 'locked_until'
>;

/**
 * Completed records never change until they expire, so each process keeps the recent ones
 * (as stored: sealed bodies stay sealed) and replays them without a database read.
 */
const COMPLETED_CACHE_SIZE = 10_000;
const completed = new WeakMap<AppContext, Map<string, CompletedRecord>>();
const cacheKey = (k: repo.RecordKey) => `${k.companyId}\u0000${k.environment}\u0000${k.key}`;

function completedOf(ctx: AppContext, k: repo.RecordKey): CompletedRecord | undefined {
  const record = completed.get(ctx)?.get(cacheKey(k));
  if (record && record.created_at + REPLAY_WINDOW_MS > ctx.clock.now()) return record;
  return undefined;
}

function remember(ctx: AppContext, k: repo.RecordKey, record: CompletedRecord): void {
  const cache = completed.get(ctx) ?? new Map<string, CompletedRecord>();
  completed.set(ctx, cache);
  if (cache.size >= COMPLETED_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(cacheKey(k), record);
}

/**
 * One rule for stored replies: every body is sealed at rest with the box that seals game keys,
 * whatever the route (a reply may carry a new API key token, game keys, anything). Migration 0007
 * dropped the readable ones stored before; one a process of the previous release writes during a
 * rolling deploy (`response_sealed = 0`) still replays as stored.
 */
function boxOf(ctx: AppContext) {
  if (!ctx.secrets)
    throw fail('INTERNAL_ERROR', 'No master key is configured: idempotent replies cannot be sealed.');
  return ctx.secrets;
}

function replayBody(ctx: AppContext, record: { response_body: string | null; response_sealed: number }) {
  const body = record.response_body ?? '';
  return record.response_sealed === 1 ? boxOf(ctx).open(body) : body;
}

/**
 * preHandler: the first request with a key claims it (one insert wins, on any number of
 * processes); a repeat within 24 h replays the stored reply, a different body is a mismatch,
 * and a repeat while the first still runs answers IDEMPOTENCY_REQUEST_IN_PROGRESS.
 */
function sendReplay(ctx: AppContext, reply: FastifyReply, record: CompletedRecord) {
  return reply
    .code(record.status_code!)
    .header('Idempotency-Replayed', 'true')
    .type(record.content_type ?? 'application/json; charset=utf-8')
    .send(replayBody(ctx, record));
}

export async function beginIdempotentRequest(ctx: AppContext, request: FastifyRequest, reply: FastifyReply) {
  request.idempotencyRecord = null;
  const mode = request.routeOptions.config.idempotency;
  if (!mode) return;
  const raw = request.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') {
    if (mode === 'required')
      throw fail('BAD_REQUEST', 'This endpoint requires an Idempotency-Key header.', {
        reason: 'idempotency_key_required',
      });
    return;
  }
  if (!KEY_PATTERN.test(key)) {
    throw fail('BAD_REQUEST', 'Idempotency-Key must be 1-255 printable ASCII characters.', {
      reason: 'idempotency_key_malformed',
    });
  }
  boxOf(ctx);
  const principal = principalOf(request);
  const recordKey = { companyId: principal.companyId, environment: principal.environment, key };
  const hash = requestHashOf(request);
  const now = ctx.clock.now();

  // Claim first: a new key (the common case) costs one statement. A repeat this process
  // answered recently replays from memory; any other repeat costs the refused claim and a read.
  for (let attempt = 0; attempt < 3; attempt++) {
    const remembered = completedOf(ctx, recordKey);
    if (!remembered && (await repo.claim(ctx.db, recordKey, hash, now, LEASE_MS))) {
      request.idempotencyRecord = recordKey;
      return;
    }
    const existing = remembered ?? (await repo.find(ctx.db, recordKey));
    // Released between the claim and the read (a transient failure, or expired): claim again.
    if (!existing) continue;
    if (existing.created_at + REPLAY_WINDOW_MS <= now) {
      await repo.release(ctx.db, recordKey, existing.created_at);
      continue;
    }
    if (existing.request_hash !== hash) {
      throw fail('IDEMPOTENCY_KEY_MISMATCH', 'This Idempotency-Key was first used with a different request.');
    }
    if (existing.status_code !== null) {
      remember(ctx, recordKey, existing);
      return sendReplay(ctx, reply, existing);
    }
    if (
      existing.locked_until <= now &&
      (await repo.retake(ctx.db, recordKey, existing.locked_until, now, LEASE_MS))
    ) {
      request.idempotencyRecord = recordKey;
      return;
    }
    break;
  }
  throw fail(
    'IDEMPOTENCY_REQUEST_IN_PROGRESS',
    'A request with this Idempotency-Key is still in flight.',
    {},
    { 'Retry-After': '1' },
  );
}

/**
 * onSend: stores the reply of a claimed key. Transient failures (see `isTransient`) are not
 * stored: the claim is released so that the same key can be retried.
 */
export async function finishIdempotentRequest(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
) {
  const record = request.idempotencyRecord;
  if (!record) return;
  request.idempotencyRecord = null;
  const status = reply.statusCode;
  const storable = typeof payload === 'string' || Buffer.isBuffer(payload) || payload == null;
  if (request.transientFailure || !storable) {
    await repo.release(ctx.db, record);
    return;
  }
  const body = payload == null ? '' : payload.toString();
  const contentType = reply.getHeader('content-type');
  const type = typeof contentType === 'string' ? contentType : null;
  await repo.complete(ctx.db, record, status, boxOf(ctx).seal(body), type);
}
