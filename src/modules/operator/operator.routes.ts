import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { DateTime, dataEnvelope } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { isoOf } from '../../lib/clock.js';
import { adminErrors } from './admin-view.js';
import { registerAfterSaleAdminRoutes } from './after-sale.admin.js';
import { registerAllocationRequestAdminRoutes } from './allocation-requests.admin.js';
import { registerCatalogAdminRoutes } from './catalog.admin.js';
import { registerCompanyAdminRoutes } from './companies.admin.js';
import { registerFinanceAdminRoutes } from './finance.admin.js';
import { registerListAdminRoutes } from './lists.admin.js';
import { registerPartnerAdminRoutes } from './partners.admin.js';
import { registerPreorderAdminRoutes } from './preorders.admin.js';
import { registerSupplyAdminRoutes } from './supply.admin.js';
import { registerVersioningAdminRoutes } from './versioning.admin.js';
import { registerWebhookAdminRoutes } from './webhooks.admin.js';

const admin = { auth: 'admin' } as const;

/** The operator API (`/admin/v1`, bearer SDAPI_ADMIN_TOKEN): the publisher-console side. */
export function registerOperatorRoutes(app: TypedApp, ctx: AppContext, openApi: () => unknown): void {
  app.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () => openApi());
  registerPartnerAdminRoutes(app, ctx);
  registerCatalogAdminRoutes(app, ctx);
  registerSupplyAdminRoutes(app, ctx);
  registerAllocationRequestAdminRoutes(app, ctx);
  registerFinanceAdminRoutes(app, ctx);
  registerAfterSaleAdminRoutes(app, ctx);
  registerWebhookAdminRoutes(app, ctx);
  registerListAdminRoutes(app, ctx);
  registerVersioningAdminRoutes(app, ctx);
  registerPreorderAdminRoutes(app, ctx);
  registerCompanyAdminRoutes(app, ctx);

  app.post('/clock', {
    config: admin,
    schema: {
      tags: ['test clock'],
      summary:
        'Moves the service clock forward for every process on the database (only with SDAPI_TEST_CLOCK=1); answers once all see it.',
      body: Type.Object({ advanceSeconds: Type.Integer({ minimum: 1, maximum: 366 * 86400 }) }),
      response: { 200: dataEnvelope(Type.Object({ now: DateTime })), ...adminErrors },
    },
    handler: async (request) => {
      if (!ctx.testClock)
        throw fail('FORBIDDEN', 'The test clock is off; start the service with SDAPI_TEST_CLOCK=1.').withHint(
          'Only a test deployment (SDAPI_TEST_CLOCK=1) moves its clock.',
        );
      return { data: { now: isoOf(await ctx.testClock.advanceShared(request.body.advanceSeconds)) } };
    },
  });
}
