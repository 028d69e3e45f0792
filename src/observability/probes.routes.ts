import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { fail } from '../http/errors.js';

/** A dependency that does not answer within this long counts as down. */
const PROBE_TIMEOUT_MS = 2_000;

async function probe(check: () => Promise<unknown>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch (err) {
    return `failed: ${err instanceof Error ? err.message : String(err)}`;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Probes of the operator listener, without authentication (the listener is the boundary):
 * `/health/live` answers while the process serves requests; `/health/ready` answers 200 when
 * every dependency (database, Redis when configured) answers and the process is not draining,
 * otherwise 503 SERVICE_UNAVAILABLE naming what failed; with a read replica it also reports the
 * replica's state. `/metrics` is the Prometheus text format.
 */
export function registerProbeRoutes(app: FastifyInstance, ctx: AppContext, isDraining: () => boolean): void {
  const open = { config: { auth: 'none' as const }, schema: { hide: true } };
  ctx.metrics.collectProcessMetrics();

  app.get('/health/live', open, async () => ({ status: 'live' }));

  app.get('/health/ready', open, async () => {
    const names = Object.keys(ctx.probes);
    const results = await Promise.all(names.map((name) => probe(ctx.probes[name]!)));
    const checks = Object.fromEntries(names.map((name, i) => [name, results[i]]));
    const draining = isDraining();
    if (draining || results.some((r) => r !== 'ok')) {
      throw fail(
        'SERVICE_UNAVAILABLE',
        draining ? 'This process is shutting down.' : 'A dependency does not answer.',
        { draining, checks },
      );
    }
    // A lagging or stopped replica leaves the process ready: the primary serves its reads.
    return { status: 'ready', checks, ...(ctx.replica && { replica: ctx.replica.status() }) };
  });

  app.get('/metrics', open, async (_request, reply) => {
    reply.type(ctx.metrics.registry.contentType);
    return ctx.metrics.registry.metrics();
  });
}
