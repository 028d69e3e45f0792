import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { DateTime, OneOf } from '../../http/schemas.js';
import { listSunsets, publishSunset, type Sunset, withdrawSunset } from '../../http/sunsets.js';
import type { TypedApp } from '../../http/typed-app.js';
import { SUPPORTED_CONTRACT_DATES } from '../../http/versioning.js';
import { instantOf, isoOf } from '../../lib/clock.js';
import { adminResponses } from './admin-view.js';

const admin = { auth: 'admin' } as const;
const tags = ['contract dates'];
const Params = Type.Object({ date: OneOf(SUPPORTED_CONTRACT_DATES) });

const view = (date: string, sunset: Sunset | undefined) => ({
  contractDate: date,
  sunsetAt: sunset ? isoOf(sunset.sunsetAt) : null,
  deprecatedSince: sunset ? isoOf(sunset.publishedAt) : null,
});

/**
 * The operator publishes (or withdraws) the sunset of a contract date: from then on, replies to
 * requests pinned to that date carry Deprecation, Sunset and Link (docs/http-contract.md).
 */
export function registerVersioningAdminRoutes(app: TypedApp, ctx: AppContext): void {
  app.get('/contract-dates', {
    config: admin,
    schema: {
      tags,
      summary: 'The supported contract dates and the sunset published for each.',
      response: adminResponses(),
    },
    handler: async () => {
      const sunsets = new Map((await listSunsets(ctx)).map((s) => [s.contractDate, s]));
      return { data: SUPPORTED_CONTRACT_DATES.map((d) => view(d, sunsets.get(d))) };
    },
  });

  app.put('/contract-dates/:date/sunset', {
    config: admin,
    schema: {
      tags,
      summary:
        'Publishes the sunset date of a contract date (replies pinned to it then carry Deprecation, Sunset, Link).',
      params: Params,
      body: Type.Object({ sunsetAt: DateTime }, { additionalProperties: false }),
      response: adminResponses(),
    },
    handler: async (request) => {
      const sunsetAt = instantOf(request.body.sunsetAt);
      if (sunsetAt <= ctx.clock.now())
        throw fail('VALIDATION_FAILED', 'sunsetAt must be in the future.', {
          issues: [{ field: 'sunsetAt', in: 'body', message: 'must be in the future', keyword: 'range' }],
        });
      const sunset = await publishSunset(ctx, request.params.date, sunsetAt);
      return { data: view(request.params.date, sunset) };
    },
  });

  app.delete('/contract-dates/:date/sunset', {
    config: admin,
    schema: {
      tags,
      summary: 'Withdraws the sunset of a contract date.',
      params: Params,
      response: adminResponses(),
    },
    handler: async (request) => {
      if (!(await withdrawSunset(ctx, request.params.date)))
        throw fail('NOT_FOUND', `No sunset is published for ${request.params.date}.`);
      return { data: view(request.params.date, undefined) };
    },
  });
}
