import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';
import { createListenerApp, SELLER_PREFIX } from './http/listeners.js';
import { openApiOptions } from './http/openapi/document.js';
import { registerVersionRedirect } from './http/redirect.js';
import { installWriteMarks } from './http/write-marks.js';
import { registerAfterSaleRoutes, registerReplacementRoutes } from './modules/after-sale/index.js';
import { registerAllocationRoutes, registerAvailabilityRoutes } from './modules/allocations/index.js';
import { registerApiKeyRoutes } from './modules/api-keys/index.js';
import {
  registerCatalogRoutes,
  registerExportRoutes,
  registerSnapshotRoutes,
} from './modules/catalog/index.js';
import {
  registerCancelRoutes,
  registerCheckoutRoutes,
  registerHoldRoutes,
  registerOrderReadRoutes,
  registerPullRoutes,
  registerRedemptionPage,
  registerReservationRoutes,
} from './modules/checkout/index.js';
import { registerConsole } from './modules/console/index.js';
import { registerDocsPage, registerOpenApiRoute } from './modules/docs/index.js';
import {
  installUsageCounting,
  registerActivityRoutes,
  registerFinanceRoutes,
  registerReportRoutes,
} from './modules/finance/index.js';
import { registerGeoAttestRoutes } from './modules/geo-attest/index.js';
import { registerIdentityRoutes } from './modules/identity/index.js';
import { registerPartnerRoutes } from './modules/partners/index.js';
import { registerPromotionRoutes } from './modules/promotions/index.js';
import { installRequestLog, registerRequestLogRoutes } from './modules/request-log/index.js';
import { registerWebhookRoutes } from './modules/webhooks/index.js';

export { ADMIN_PREFIX, BODY_LIMIT_BYTES, SELLER_PREFIX } from './http/listeners.js';

export type App = FastifyInstance;

/**
 * The seller application (the public port) with every seller module registered; the caller
 * decides whether to listen. The operator API is another application on its own listener
 * (admin-app.ts): nothing under /admin/v1 exists here.
 */
export async function buildApp(ctx: AppContext): Promise<App> {
  const app = createListenerApp(ctx, 'seller');
  installWriteMarks(app, ctx);
  const usage = installUsageCounting(app, ctx);
  const requestLog = installRequestLog(app, ctx, SELLER_PREFIX);

  let sellerDocument: () => unknown = () => ({});
  await app.register(
    async (seller) => {
      await seller.register(swagger, openApiOptions('seller', ctx.config.publicUrl));
      const typed = seller.withTypeProvider<TypeBoxTypeProvider>();
      registerIdentityRoutes(typed, ctx);
      registerApiKeyRoutes(typed, ctx);
      registerPartnerRoutes(typed, ctx);
      registerAllocationRoutes(typed, ctx);
      registerAvailabilityRoutes(typed, ctx);
      registerCatalogRoutes(typed, ctx);
      registerSnapshotRoutes(typed, ctx);
      registerExportRoutes(typed, ctx);
      registerCheckoutRoutes(typed, ctx);
      registerGeoAttestRoutes(typed, ctx);
      registerHoldRoutes(typed, ctx);
      registerOrderReadRoutes(typed, ctx);
      registerPullRoutes(typed, ctx);
      registerReservationRoutes(typed, ctx);
      registerCancelRoutes(typed, ctx);
      registerFinanceRoutes(typed, ctx);
      registerActivityRoutes(typed, ctx, usage);
      registerReportRoutes(typed, ctx);
      registerPromotionRoutes(typed, ctx);
      registerAfterSaleRoutes(typed, ctx);
      registerReplacementRoutes(typed, ctx);
      registerWebhookRoutes(typed, ctx);
      registerRequestLogRoutes(typed, ctx, requestLog);
      registerOpenApiRoute(typed, () => seller.swagger());
      sellerDocument = () => seller.swagger();
    },
    { prefix: SELLER_PREFIX },
  );
  registerDocsPage(app, () => sellerDocument());
  registerConsole(app, ctx, requestLog, usage);
  registerRedemptionPage(app, ctx);

  registerVersionRedirect(app);
  return app;
}
