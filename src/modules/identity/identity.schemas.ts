import { Type } from '@sinclair/typebox';
import { DateTime, Nullable } from '../../http/schemas.js';
import { RefundPolicySchema } from '../allocations/index.js';

export const WhoamiSchema = Type.Object({
  companyId: Type.String(),
  companyName: Type.String(),
  environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
  scopes: Type.Array(Type.String()),
  hasActiveBma: Type.Boolean(),
  capabilities: Type.Object({
    checkoutHoldEnabled: Type.Boolean(),
    keylessEnabled: Type.Boolean(),
    capabilityDetails: Type.Object({ preorder: Type.Object({ verifiedAt: Nullable(DateTime) }) }),
  }),
  key: Type.Object({
    id: Type.String(),
    name: Type.String(),
    rateLimited: Type.Boolean(),
    expiresAt: Nullable(DateTime),
    ipRestricted: Type.Boolean(),
  }),
  footprint: Type.Object({
    countries: Type.Array(Type.String()),
    currencies: Type.Array(Type.String()),
    countriesWithoutReferenceRate: Type.Array(Type.String()),
  }),
  permittedCurrenciesByPublisher: Type.Array(
    Type.Object({
      publisherCompanyId: Type.String(),
      publisherName: Type.String(),
      contractId: Type.String(),
      currencyMode: Type.String(),
      currencyDetail: Type.Record(
        Type.String(),
        Type.Union([Type.Array(Type.String()), Type.Literal('territory')]),
      ),
      permittedChannels: Type.String(),
      marketplaceSlugs: Type.Array(Type.String()),
    }),
  ),
  geoPolicyByPublisher: Type.Array(
    Type.Object({
      publisherCompanyId: Type.String(),
      publisherName: Type.String(),
      consumerGeoPolicy: Type.String(),
      regionLocks: Type.Array(Type.String()),
    }),
  ),
  requiredDeclarations: Type.Array(Type.String()),
  requiredDeclarationsNote: Type.String(),
  integrationReadiness: Type.Object({
    blockers: Type.Array(
      Type.Object({
        code: Type.String(),
        action: Type.String(),
        countries: Type.Optional(Type.Array(Type.String())),
      }),
    ),
  }),
  settlement: Type.Object({ invoiceWithinDays: Type.Null() }),
  refundPolicy: RefundPolicySchema,
  sandboxNotes: Nullable(
    Type.Object(
      {
        docUrl: Type.String(),
        magicSkus: Type.Array(Type.Object({ skuCode: Type.String(), behaviour: Type.String() })),
      },
      { description: 'Sandbox keys only (null for production): the magic SKUs and what each shows.' },
    ),
  ),
});

/**
 * Codes in any case (stored upper case). Emptiness and unknown codes are refused by the
 * service's validator, so the refusal names the code in words rather than a pattern.
 */
export const FootprintBody = Type.Object({
  countries: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 250 }),
  currencies: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 200 }),
});

export const FootprintSchema = Type.Object({
  countries: Type.Array(Type.String()),
  currencies: Type.Array(Type.String()),
  updatedAt: Nullable(DateTime),
});

export const HealthSchema = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  database: Type.Union([Type.Literal('ok'), Type.Literal('unreachable')]),
  engine: Type.String(),
  time: DateTime,
});

export const IntegrationStatusSchema = Type.Object({
  environment: Type.String(),
  ready: Type.Boolean({ description: 'no check asks for an action' }),
  firstOrderCompleted: Type.Boolean(),
  firstOrderAt: Nullable(DateTime),
  firstOrderReference: Nullable(Type.String()),
  blockers: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  hasActiveBma: Type.Boolean(),
  footprint: Type.Object({
    complete: Type.Boolean(),
    countries: Type.Array(Type.String()),
    currencies: Type.Array(Type.String()),
    countriesWithoutReferenceRate: Type.Array(Type.String()),
  }),
  webhooks: Type.Object({
    endpointCount: Type.Integer(),
    activeCount: Type.Integer(),
    endpoints: Type.Array(
      Type.Object({
        id: Type.String(),
        host: Type.String(),
        status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
        disabledReason: Nullable(Type.String({ description: 'why the circuit breaker disabled it' })),
        disabledAt: Nullable(DateTime),
        enableWith: Nullable(Type.String({ description: 'the request that re-enables a disabled endpoint' })),
        consecutiveFailures: Type.Integer(),
        lastSuccessfulDeliveryAt: Nullable(DateTime),
        deliveries: Type.Object({
          pending: Type.Integer({ description: 'awaiting delivery, buffered while disabled included' }),
          failed: Type.Integer({ description: 'retries exhausted' }),
        }),
      }),
    ),
  }),
  checks: Type.Array(
    Type.Object({
      check: Type.String({ description: 'blockers, active_agreement, footprint, first_order or webhooks' }),
      status: Type.String({ description: 'ok, action_required or pending' }),
      action: Nullable(Type.String()),
    }),
  ),
});
