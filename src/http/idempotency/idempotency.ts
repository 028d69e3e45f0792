import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { sha256Hex } from '../../lib/crypto.js';
import { fail } from '../errors.js';
import { MAX_JSON_DEPTH, tooDeep } from '../input-limits.js';
import { principalOf } from '../request-context.js';
import { writeOrRetry } from './deferred-writes.js';
import * as repo from './idempotency.repo.js';
import { isOwnerDead, processIdOf } from './owner-heartbeat.js';
import { type Claim, type RecordKey, recordKeyId } from './record-key.js';

export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How long a first execution may run before its claim counts as abandoned. */
const LEASE_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyRecord: Claim | null;
    /** A replay this process can answer from memory, found before the body was parsed. */
    rememberedReplay: Remembered | null;
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
  | 'owner'
>;

/**
 * What a process remembers of a completed record, which never changes until it expires: the
 * record as stored (its body sealed), the request text that last matched it (the same method,
 * path and body bytes are the same request without a canonical hash), and the opened reply,
 * kept for OPENED_REPLY_MS after it was opened so that a burst of retries opens it once.
 */
interface Remembered {
  record: CompletedRecord;
  matchedText: string | null;
  opened: string | null;
  openedUntil: number;
}

const COMPLETED_CACHE_SIZE = 10_000;
/** How long an opened reply (game keys, a new API key) stays readable in this process's memory. */
export const OPENED_REPLY_MS = 10_000;
const completed = new WeakMap<AppContext, Map<string, Remembered>>();

function rememberedOf(ctx: AppContext, k: RecordKey, now: number): Remembered | undefined {
  const entry = completed.get(ctx)?.get(recordKeyId(k));
  if (entry && entry.record.created_at + REPLAY_WINDOW_MS > now) return entry;
  return undefined;
}

function remember(ctx: AppContext, k: RecordKey, record: CompletedRecord): Remembered {
  const cache = completed.get(ctx) ?? new Map<string, Remembered>();
  completed.set(ctx, cache);
  if (cache.size >= COMPLETED_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  const entry: Remembered = { record, matchedText: null, opened: null, openedUntil: 0 };
  cache.set(recordKeyId(k), entry);
  return entry;
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

function openedBody(ctx: AppContext, entry: Remembered, now: number): string {
  if (entry.opened !== null && entry.openedUntil > now) return entry.opened;
  const { response_body, response_sealed } = entry.record;
  const body = response_body ?? '';
  entry.opened = response_sealed === 1 ? boxOf(ctx).open(body) : body;
  entry.openedUntil = now + OPENED_REPLY_MS;
  return entry.opened;
}

/** A stored reply as sent again: game keys taken back since it was stored are left out. */
async function sendReplay(ctx: AppContext, reply: FastifyReply, entry: Remembered, now: number) {
  const { record } = entry;
  const body = await ctx.replays.asAnsweredNow(ctx.db, openedBody(ctx, entry, now));
  return reply
    .code(record.status_code!)
    .header('Idempotency-Replayed', 'true')
    .type(record.content_type ?? 'application/json; charset=utf-8')
    .send(body);
}

/** The request as sent, when its body came as JSON text: the same text is the same request. */
const requestTextOf = (request: FastifyRequest, bodyText: string | null) =>
  bodyText === null ? null : `${request.method} ${request.url.split('?')[0]}\n${bodyText}`;

const recordKeyOf = (principal: { companyId: string; environment: string }, key: string): RecordKey => ({
  companyId: principal.companyId,
  environment: principal.environment,
  key,
});

/** The Idempotency-Key header of a route that takes one, or undefined. */
function keyHeaderOf(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  return Array.isArray(raw) ? raw[0] : raw;
}

/**
 * Before the body is parsed (input-limits.ts): a request whose method, path and body text are
 * those that last matched a completed record this process remembers, under the same company,
 * environment and key, is that request again. It is answered in preValidation
 * (`replayRemembered`), without parsing, validating or hashing the body again.
 */
export function isRememberedReplay(ctx: AppContext, request: FastifyRequest, text: string): boolean {
  const principal = request.principal;
  const key = keyHeaderOf(request);
  if (!principal || !key || !request.routeOptions.config.idempotency || !ctx.secrets) return false;
  const recordKey = recordKeyOf(principal, key);
  const entry = rememberedOf(ctx, recordKey, ctx.clock.now());
  if (!entry || entry.matchedText === null || entry.matchedText !== requestTextOf(request, text))
    return false;
  request.rememberedReplay = entry;
  return true;
}

/** preValidation: answers a replay `isRememberedReplay` found. */
export async function replayRemembered(ctx: AppContext, entry: Remembered, reply: FastifyReply) {
  await sendReplay(ctx, reply, entry, ctx.clock.now());
}

/**
 * preHandler: the first request with a key claims it (one insert wins, on any number of
 * processes); a repeat within 24 h replays the stored reply, a different body is a mismatch,
 * and a repeat while the first still runs answers IDEMPOTENCY_REQUEST_IN_PROGRESS.
 */
export async function beginIdempotentRequest(ctx: AppContext, request: FastifyRequest, reply: FastifyReply) {
  request.idempotencyRecord = null;
  const mode = request.routeOptions.config.idempotency;
  if (!mode) return;
  const key = keyHeaderOf(request);
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
  const recordKey = recordKeyOf(principalOf(request), key);
  const now = ctx.clock.now();
  const text = requestTextOf(request, request.bodyText);
  const known = rememberedOf(ctx, recordKey, now);
  const hash =
    known && text !== null && known.matchedText === text ? known.record.request_hash : requestHashOf(request);

  const claim: Claim = { ...recordKey, owner: await processIdOf(ctx), lockedUntil: now + LEASE_MS };
  // Claim first: a new key (the common case) costs one statement. A repeat this process
  // answered recently replays from memory; any other repeat costs the refused claim and a read.
  for (let attempt = 0; attempt < 3; attempt++) {
    const remembered = attempt === 0 ? known : rememberedOf(ctx, recordKey, now);
    if (!remembered && (await repo.claim(ctx.db, claim, hash, now))) {
      request.idempotencyRecord = claim;
      return;
    }
    const existing = remembered?.record ?? (await repo.find(ctx.db, recordKey));
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
      const entry = remembered ?? remember(ctx, recordKey, existing);
      entry.matchedText = text;
      return sendReplay(ctx, reply, entry, now);
    }
    if ((await isAbandoned(ctx, existing, now)) && (await repo.retake(ctx.db, claim, existing))) {
      request.idempotencyRecord = claim;
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
 * An in-flight claim no execution will finish: its lease passed, or the process that holds it
 * stopped its heartbeat (killed, or cut off from the database: owner-heartbeat.ts).
 */
async function isAbandoned(
  ctx: AppContext,
  existing: { locked_until: number; owner: string | null },
  now: number,
): Promise<boolean> {
  if (existing.locked_until <= now) return true;
  return existing.owner !== null && (await isOwnerDead(ctx.db, existing.owner));
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
    await writeOrRetry(ctx, () => repo.releaseClaim(ctx.db, record));
    return;
  }
  const body = payload == null ? '' : payload.toString();
  const contentType = reply.getHeader('content-type');
  const type = typeof contentType === 'string' ? contentType : null;
  const sealed = boxOf(ctx).seal(body);
  await writeOrRetry(ctx, () => repo.complete(ctx.db, record, status, sealed, type));
}
