import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { OneOf, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { instantOf } from '../../lib/clock.js';
import {
  grantAllocation,
  requireAllocation,
  setAllocationStatus,
  updateAllocation,
} from '../allocations/index.js';
import { createPool, importKeys, poolView, requirePool } from '../inventory/index.js';
import { createPromotion } from '../promotions/index.js';
import { adminResponses, adminView } from './admin-view.js';
import { inTransaction } from './partners.admin.js';
import { AllocationTermsBody, IdParams, PromotionBody } from './schemas.js';

const admin = { auth: 'admin' } as const;

const ImportSummarySchema = Type.Object({
  poolId: Type.String(),
  linesRead: Type.Integer(),
  imported: Type.Integer(),
  duplicates: Type.Integer({ description: 'Keys already stored (in this file or before), skipped.' }),
  rejected: Type.Integer(),
  rejectedLines: Type.Array(Type.Object({ line: Type.Integer(), reason: Type.String() }), {
    description: 'The first rejected lines (at most 100), with their numbers.',
  }),
});

/** Allocations (grants), key pools, key import and promotions. */
export function registerSupplyAdminRoutes(app: TypedApp, ctx: AppContext): void {
  // Key files are streamed straight into the import: never buffered, never size-limited here.
  app.addContentTypeParser(['text/plain', 'text/csv'], (_request, payload, done) => done(null, payload));

  app.post('/connections/:id/allocations', {
    config: admin,
    schema: {
      tags: ['allocations'],
      summary: 'Grants the connected seller an allocation (quantity ceiling and terms) on one SKU.',
      params: IdParams,
      body: Type.Composite([
        Type.Object({ skuId: Uuid, quantityLimit: Type.Integer({ minimum: 0 }) }),
        Type.Omit(AllocationTermsBody, ['quantityLimit']),
      ]),
      response: adminResponses(201),
    },
    handler: async (request, reply) => {
      const { skuId, ...terms } = request.body;
      reply.code(201);
      return {
        data: adminView(
          await inTransaction(ctx, (trx) => grantAllocation(ctx, trx, request.params.id, skuId, terms)),
        ),
      };
    },
  });

  app.patch('/allocations/:id', {
    config: admin,
    schema: {
      tags: ['allocations'],
      summary: 'Changes terms, or pauses / resumes / revokes the grant (status).',
      params: IdParams,
      body: Type.Composite([
        AllocationTermsBody,
        Type.Object({ status: Type.Optional(OneOf(['active', 'paused', 'revoked'])) }),
      ]),
      response: adminResponses(),
    },
    handler: async (request) => {
      const { status, ...terms } = request.body;
      const row = await inTransaction(ctx, async (trx) => {
        const updated =
          Object.keys(terms).length > 0 ? await updateAllocation(ctx, trx, request.params.id, terms) : null;
        return status ? setAllocationStatus(ctx, trx, request.params.id, status) : updated;
      });
      return { data: row ? adminView(row) : null };
    },
  });

  app.post('/pools', {
    config: admin,
    schema: {
      tags: ['inventory'],
      summary: 'A shared pool per SKU, or a dedicated pool per allocation.',
      body: Type.Object({
        kind: OneOf(['shared', 'dedicated']),
        skuId: Type.Optional(Uuid),
        allocationId: Type.Optional(Uuid),
        replenishMode: Type.Optional(OneOf(['none', 'infinite', 'pinned'])),
        pinnedAvailable: Type.Optional(Type.Integer({ minimum: 0 })),
      }),
      response: adminResponses(201),
    },
    handler: async (request, reply) => {
      reply.code(201);
      const pool = await inTransaction(ctx, (trx) => createPool(ctx, trx, request.body, requireAllocation));
      return { data: await poolView(ctx.db, pool) };
    },
  });

  app.get('/pools/:id', {
    config: admin,
    schema: { tags: ['inventory'], params: IdParams, response: adminResponses() },
    handler: async (request) => ({
      data: await poolView(ctx.db, await requirePool(ctx.db, request.params.id)),
    }),
  });

  app.post('/pools/:id/keys', {
    config: {
      ...admin,
      streamedBody: {
        'text/plain': 'One key per line; blank lines are skipped.',
        'text/csv': 'CSV: the keys in the column headed key, code or game_key, else in the first column.',
      },
    },
    schema: {
      tags: ['inventory'],
      summary:
        'Imports keys from a text/plain (one per line) or text/csv body, streamed and encrypted at rest.',
      params: IdParams,
      querystring: Type.Object({
        format: Type.Optional(
          Type.Union([Type.Literal('lines'), Type.Literal('csv')], {
            description:
              'How to read the body: `lines` (one key per line) or `csv`; by default from its Content-Type (text/csv reads as csv).',
          }),
        ),
      }),
      response: { ...adminResponses(), 200: Type.Object({ data: ImportSummarySchema }) },
    },
    handler: async (request) => {
      const format =
        request.query.format ?? (request.headers['content-type']?.includes('csv') ? 'csv' : 'lines');
      return { data: await importKeys(ctx, request.params.id, request.body as Readable, { format }) };
    },
  });

  app.post('/promotions', {
    config: admin,
    schema: { tags: ['promotions'], body: PromotionBody, response: adminResponses(201) },
    handler: async (request, reply) => {
      const input = {
        ...request.body,
        startsAt: instantOf(request.body.startsAt),
        endsAt: instantOf(request.body.endsAt),
      };
      reply.code(201);
      return { data: await inTransaction(ctx, (trx) => createPromotion(ctx, trx, input)) };
    },
  });
}
