import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { decodeCursor, nextPageUrl, page } from '../../http/pagination.js';
import { PageMeta, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { quarantinedKeysOf, reinstateChargeback } from '../after-sale/index.js';
import { adminResponses } from './admin-view.js';

const admin = { auth: 'admin' } as const;

/** Quarantined keys per publisher, and reinstating a chargeback the seller won. */
export function registerAfterSaleAdminRoutes(app: TypedApp, ctx: AppContext): void {
  app.get('/keys/quarantined', {
    config: admin,
    schema: {
      tags: ['after-sale'],
      summary: "A publisher's quarantined keys, newest first, with why (cause, reason) and when.",
      querystring: Type.Object({
        publisherCompanyId: Uuid,
        cursor: Type.Optional(Type.String({ maxLength: 500 })),
        limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
      }),
      response: { ...adminResponses(), 200: Type.Object({ data: Type.Any(), meta: PageMeta }) },
    },
    handler: async (request) => {
      const q = request.query;
      const before = q.cursor
        ? (decodeCursor(q.cursor, ['number', 'string']) as [number, string])
        : undefined;
      const rows = await quarantinedKeysOf(ctx, q.publisherCompanyId, q.limit, before);
      const result = page(rows, q.limit, (r) => [r.row.created_at, r.row.key_id], nextPageUrl(request.url));
      return { data: result.data.map((r) => r.view), meta: result.meta };
    },
  });

  app.post('/refunds/:refundId/reinstate', {
    config: admin,
    schema: {
      tags: ['after-sale'],
      summary:
        'The seller won the chargeback: its sales are recorded again (reinstatedCents) and its keys leave quarantine.',
      params: Type.Object({ refundId: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: adminResponses(),
    },
    handler: async (request) => ({ data: await reinstateChargeback(ctx, request.params.refundId) }),
  });
}
