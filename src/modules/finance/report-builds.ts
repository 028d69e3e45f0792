import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGzip } from 'node:zlib';
import { type AppContext, runInBackground } from '../../context.js';
import { isoOf } from '../../lib/clock.js';
import { emit } from '../events/index.js';
import type { ActivityFilter } from './activity.repo.js';
import { activityCsv } from './activity.service.js';
import * as repo from './reports.repo.js';
import type { SellerRows } from './sales-read.repo.js';

export const REPORT_TYPE = 'activity_csv';
/** How long a report's artifact is kept. */
export const REPORT_TTL_MS = 24 * 60 * 60 * 1000;
export const REPORT_FAILED = 'The report could not be built; start a new one.';
/**
 * After each build a seller's next waits this many times as long as the build took, so one
 * seller's exports take at most a tenth of a process however often they are asked for; the
 * reports asked meanwhile are built together, once.
 */
const REST_PER_BUILD = 9;

type Log = { error(details: object, message: string): void };
/** The activity filters a report is asked with (its seller and environment come from the key). */
export type ReportFilters = Omit<ActivityFilter, 'sellerId' | 'environment' | 'before'>;

/** Per process: the sellers whose reports are being built, and whether more were asked meanwhile. */
const building = new WeakMap<AppContext, Map<string, { askedAgain: boolean }>>();

/**
 * Builds the seller's pending reports after the reply: one build at a time per seller and
 * environment in this process, each taking every pending report asked with the same filters
 * (one gzip stored for all of them), with a rest between builds (REST_PER_BUILD). Called again while
 * a build runs, it makes the running loop look once more instead of starting another.
 */
export function buildPendingReports(ctx: AppContext, scope: SellerRows, log?: Log): void {
  const sellers = building.get(ctx) ?? new Map<string, { askedAgain: boolean }>();
  building.set(ctx, sellers);
  const key = `${scope.sellerId}/${scope.environment}`;
  const running = sellers.get(key);
  if (running) {
    running.askedAgain = true;
    return;
  }
  const state = { askedAgain: true };
  sellers.set(key, state);
  void runInBackground(ctx, async () => {
    // The rest comes before a build that follows another, never after the last: a lone report is
    // built at once, and a process with nothing left to build does not wait out a rest to close.
    let restUntil = 0;
    try {
      while (state.askedAgain) {
        state.askedAgain = false;
        while (await repo.hasUnbuiltReports(ctx.db, scope)) {
          await sleep(Math.max(0, restUntil - performance.now()));
          const build = await repo.takeUnbuiltReports(ctx.db, scope);
          if (!build) break;
          const started = performance.now();
          await buildOrFail(ctx, scope, build, log);
          restUntil = performance.now() + REST_PER_BUILD * (performance.now() - started);
        }
      }
    } finally {
      sellers.delete(key);
    }
  });
}

async function buildOrFail(ctx: AppContext, scope: SellerRows, build: repo.ReportBuild, log?: Log) {
  try {
    await buildReports(ctx, scope, build);
  } catch (err) {
    log?.error({ err, reportId: build.leadId }, 'activity report failed');
    await repo.failBuild(ctx.db, build, REPORT_FAILED, ctx.clock.now()).catch(() => undefined);
  }
}

/** The gzip CSV of the activity the build's filters match; `report.ready` for each report it settles. */
async function buildReports(ctx: AppContext, scope: SellerRows, build: repo.ReportBuild) {
  const filters = JSON.parse(build.filters) as ReportFilters;
  const chunks: Buffer[] = [];
  let rows = 0;
  await pipeline(
    activityCsv(ctx, { ...filters, ...scope }, (count) => {
      rows += count;
    }),
    createGzip(),
    async (gzipped: AsyncIterable<Buffer>) => {
      for await (const chunk of gzipped) chunks.push(chunk);
    },
  );
  const artifact = Buffer.concat(chunks);
  const readyAt = ctx.clock.now();
  const ready = {
    checksum: createHash('sha256').update(artifact).digest('hex'),
    bytes: artifact.length,
    row_count: rows,
    completed_at: readyAt,
    expires_at: readyAt + REPORT_TTL_MS,
  };
  await ctx.db.transaction().execute(async (trx) => {
    const audience = [{ companyId: scope.sellerId, environment: scope.environment }];
    for (const reportId of await repo.settleBuild(trx, build, ready, artifact))
      await emit(ctx, trx, audience, 'report.ready', {
        reportId,
        reportType: REPORT_TYPE,
        readyAt: isoOf(readyAt),
      });
  });
}
