import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import type { RouteContract } from './request-context.js';

/** One registered route as its declaration states it: what the shared hooks and the route-table tests read. */
export interface RouteEntry {
  method: string;
  url: string;
  config: Partial<RouteContract>;
  schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of this application, in the order registered (filled as routes are added). */
    routeTable: readonly RouteEntry[];
  }
}

/** Records every route added to `app` or any of its plugins; install before the first route. */
export function recordRouteTable(app: FastifyInstance): void {
  const entries: RouteEntry[] = [];
  app.decorate('routeTable', entries);
  app.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) {
      entries.push({
        method,
        url: route.url,
        config: (route.config ?? {}) as Partial<RouteContract>,
        schema: route.schema,
      });
    }
  });
}
