import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { DateOnly } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import type { UsageCounter } from '../finance/index.js';
import { usage } from '../finance/index.js';
import type { RequestLogRecorder } from '../request-log/index.js';
import { consoleAnswer, UsagePage } from './console.schemas.js';
import { CONSOLE_API } from './console-auth.routes.js';
import { requireSellerSession } from './console-http.js';
import { busiestKeys, rateLimitPeaks } from './usage-insights.service.js';

/**
 * The Usage page: GET /usage's calls per route class per day (the same service, so the same
 * figures), and from the request log the busiest minute per rate-limit bucket and the busiest keys.
 */
export function registerConsoleUsageRoutes(
  app: TypedApp,
  ctx: AppContext,
  counter: UsageCounter,
  requestLog: RequestLogRecorder,
): void {
  app.get(
    `${CONSOLE_API}/usage`,
    {
      config: { auth: 'none' },
      schema: {
        ...consoleAnswer(UsagePage),
        querystring: Type.Object(
          { from: Type.Optional(DateOnly), to: Type.Optional(DateOnly) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const { session, seller } = await requireSellerSession(ctx, request);
      await Promise.all([counter.flush(ctx.db), requestLog.flush()]);
      const daily = await usage(ctx, seller, request.query);
      const span = { companyId: session.companyId, environment: session.environment, ...daily.meta };
      const [peaks, keys] = await Promise.all([rateLimitPeaks(ctx, span), busiestKeys(ctx, span)]);
      return { data: daily.data, meta: { ...daily.meta, peaks, busiestKeys: keys } };
    },
  );
}
