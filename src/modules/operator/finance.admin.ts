import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { OneOf, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { getCompany } from '../companies/index.js';
import { closeMonth, Month } from '../finance/index.js';
import { adminResponses } from './admin-view.js';

/** Closing a seller's month into an invoice (docs/finance.md). */
export function registerFinanceAdminRoutes(app: TypedApp, ctx: AppContext): void {
  app.post('/finance/invoices', {
    config: { auth: 'admin' },
    schema: {
      tags: ['finance'],
      summary:
        "Closes a seller's ended UTC month: freezes its statement into an invoice and emits invoice.created (201); an already closed month answers 200 with its invoice.",
      body: Type.Object({
        sellerCompanyId: Uuid,
        environment: OneOf(['sandbox', 'production']),
        period: Month,
      }),
      response: { ...adminResponses(201), 200: Type.Object({ data: Type.Any() }) },
    },
    handler: async (request, reply) => {
      const { sellerCompanyId, environment, period } = request.body;
      if (!(await getCompany(ctx, sellerCompanyId, ctx.db)))
        throw fail('NOT_FOUND', `No company ${sellerCompanyId}.`);
      const { created, invoice } = await closeMonth(ctx, { sellerId: sellerCompanyId, environment }, period);
      reply.code(created ? 201 : 200);
      return { data: invoice };
    },
  });
}
