import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import * as repo from './sunsets.repo.js';
import type { ContractDate } from './versioning.js';

export interface Sunset {
  contractDate: string;
  sunsetAt: number;
  publishedAt: number;
}

/** How long a process trusts its copy of the published sunsets (every process converges in this). */
const SUNSETS_TTL_MS = 5_000;
const cached = new WeakMap<AppContext, { readAt: number; byDate: Map<string, Sunset> }>();

export async function listSunsets(ctx: AppContext): Promise<Sunset[]> {
  const rows = await repo.allSunsets(ctx.db);
  return rows.map((r) => ({
    contractDate: r.contract_date,
    sunsetAt: Number(r.sunset_at),
    publishedAt: Number(r.published_at),
  }));
}

/** Publishes (or moves) the sunset of a contract date; this process sees it at once. */
export async function publishSunset(
  ctx: AppContext,
  contractDate: ContractDate,
  sunsetAt: number,
): Promise<Sunset> {
  const publishedAt = ctx.clock.now();
  await repo.upsertSunset(ctx.db, {
    contract_date: contractDate,
    sunset_at: sunsetAt,
    published_at: publishedAt,
  });
  cached.delete(ctx);
  return (await listSunsets(ctx)).find((s) => s.contractDate === contractDate)!;
}

/** Withdraws a published sunset; false when none was published. */
export async function withdrawSunset(ctx: AppContext, contractDate: ContractDate): Promise<boolean> {
  const withdrawn = await repo.deleteSunset(ctx.db, contractDate);
  cached.delete(ctx);
  return withdrawn;
}

async function sunsetOf(ctx: AppContext, date: string, now: number): Promise<Sunset | undefined> {
  let copy = cached.get(ctx);
  if (!copy || now - copy.readAt >= SUNSETS_TTL_MS || now < copy.readAt) {
    copy = { readAt: now, byDate: new Map((await listSunsets(ctx)).map((s) => [s.contractDate, s])) };
    cached.set(ctx, copy);
  }
  return copy.byDate.get(date);
}

/**
 * A reply to a request pinned to a contract date whose sunset is published carries
 * `Deprecation` (RFC 9745: `@` and the unix time it was deprecated, i.e. published), `Sunset`
 * (RFC 8594: the HTTP-date after which the pin may stop working) and a `Link` to the contract
 * dates guide (`rel="sunset"`). Unpinned requests get none: they move with the default.
 */
export async function stampSunset(
  ctx: AppContext,
  reply: FastifyReply,
  pinned: ContractDate,
  now: number,
): Promise<void> {
  const sunset = await sunsetOf(ctx, pinned, now);
  if (!sunset) return;
  reply
    .header('deprecation', `@${Math.floor(sunset.publishedAt / 1000)}`)
    .header('sunset', new Date(sunset.sunsetAt).toUTCString())
    .header('link', `<${ctx.config.publicUrl}/docs#section/Contract-dates>; rel="sunset"; type="text/html"`);
}
