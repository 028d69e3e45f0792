import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The company of the console session the request acted in (set by requireSession). */
    sessionCompanyId: string | null;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * With a read replica, every request that may have written for a company (any method but
 * GET/HEAD/OPTIONS, by an API key or a console session) records the primary's WAL position
 * before its answer leaves, so the company's next reads wait for the replica to replay it
 * (db/replica.ts). Without a replica nothing is installed: the order path pays nothing.
 */
export function installWriteMarks(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('sessionCompanyId', null);
  const replica = ctx.replica;
  if (!replica) return;
  app.addHook('onSend', async (request, _reply, payload) => {
    if (READ_METHODS.has(request.method)) return payload;
    const companyId = request.principal?.companyId ?? request.sessionCompanyId;
    // The write stands whatever happens here; the failure reaches the reads (ReadReplica.route).
    if (companyId) await replica.markWrite(companyId).catch(() => replica.markUnrecorded());
    return payload;
  });
}
