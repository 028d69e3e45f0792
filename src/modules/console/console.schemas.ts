import { type TSchema, Type } from '@sinclair/typebox';
import { DateTime, dataEnvelope, NoContent, Nullable, OneOf, PageMeta } from '../../http/schemas.js';
import { RefundSchema } from '../after-sale/index.js';
import { AllocationSchema } from '../allocations/index.js';
import { KeyItem } from '../api-keys/index.js';
import { ProductListItem } from '../catalog/index.js';
import { OrderAggregate } from '../checkout/index.js';
import { SaleLineSchema } from '../finance/index.js';
import { CompanySchema } from '../operator/index.js';
import { Attempt, Endpoint } from '../webhooks/index.js';

/**
 * What console routes answer, where the seller API has no schema to reuse. Every console route
 * declares the schema of its success status: the console's types are generated from them
 * (`npm run console:generate`), and the serializer writes exactly the fields they name.
 */

/** A console route's schema (hidden from the seller API's document) answering 200 with `schema`. */
export const consoleAnswer = <T extends TSchema>(schema: T) => ({ hide: true, response: { 200: schema } });
/** As `consoleAnswer`, the body being `{ data }`. */
export const consoleData = <T extends TSchema>(schema: T) => consoleAnswer(dataEnvelope(schema));
/** A console route's schema answering 201 with `{ data }`. */
export const consoleCreated = <T extends TSchema>(schema: T) => ({
  hide: true,
  response: { 201: dataEnvelope(schema) },
});
/** A console route's schema answering 204 without a body. */
export const consoleNoContent = { hide: true, response: { 204: NoContent } };

const Role = OneOf(['owner', 'developer', 'finance', 'viewer'] as const);
const Environment = OneOf(['sandbox', 'production'] as const);

export const SessionSchema = Type.Object({
  user: Type.Object({ id: Type.String(), email: Type.String(), role: Role, totpEnabled: Type.Boolean() }),
  company: Type.Object({ id: Type.String(), name: Type.String(), productionAccess: Type.Boolean() }),
  environment: Environment,
  capabilities: Type.Array(Type.String()),
  mustEnrolTotp: Type.Boolean(),
  csrfToken: Type.String(),
  expiresAt: DateTime,
});

export const InviteLookupSchema = Type.Object({ email: Type.String(), role: Role, expiresAt: DateTime });
export const TotpStartSchema = Type.Object({ secret: Type.String(), uri: Type.String() });
export const RecoveryCodesSchema = Type.Object({ recoveryCodes: Type.Array(Type.String()) });
export const RecoveryStatusSchema = Type.Object({ left: Nullable(Type.Integer()) });
export const RegeneratedCodesSchema = Type.Object({
  recoveryCodes: Type.Array(Type.String()),
  left: Type.Integer(),
});
export const SecuritySchema = Type.Object({ requireTotp: Type.Boolean() });

export const ChecklistSchema = Type.Object({
  environment: Environment,
  ready: Type.Boolean(),
  blockers: Type.Array(
    Type.Object({
      code: Type.String(),
      action: Type.String(),
      countries: Type.Optional(Type.Array(Type.String())),
    }),
  ),
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      title: Type.String(),
      state: OneOf(['done', 'todo', 'waiting'] as const),
      detail: Type.String(),
      href: Nullable(Type.String()),
    }),
  ),
});

export const ConsoleKeyList = Type.Object({
  data: Type.Array(
    Type.Composite([
      Type.Omit(KeyItem, ['createdAt']),
      Type.Object({ createdAt: Nullable(DateTime), lastUsedAt: Nullable(DateTime) }),
    ]),
  ),
  meta: Type.Object({ grantableScopes: Type.Array(Type.String()), optInScopes: Type.Array(Type.String()) }),
});

export const AllowlistCheckSchema = Type.Object({
  valid: Type.Boolean(),
  normalized: Type.Array(Type.String()),
  issues: Type.Array(
    Type.Object({
      field: Type.String(),
      in: Type.String(),
      message: Type.String(),
      keyword: Type.String(),
      /** The refused entry, and the reserved range it falls in where there is one. */
      params: Type.Optional(Type.Object({ entry: Type.String(), range: Type.Optional(Type.String()) })),
    }),
  ),
});

export const TeamSchema = Type.Object({
  users: Type.Array(
    Type.Object({
      id: Type.String(),
      email: Type.String(),
      role: Role,
      totpEnabled: Type.Boolean(),
      createdAt: DateTime,
    }),
  ),
  invites: Type.Array(
    Type.Object({ id: Type.String(), email: Type.String(), role: Role, expiresAt: DateTime }),
  ),
});

export const InviteSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Role,
  expiresAt: DateTime,
  link: Type.String(),
  emailed: Type.Boolean(),
});

export const AuditPage = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      at: DateTime,
      actor: Type.String(),
      source: OneOf(['api', 'console', 'cli', 'operator'] as const),
      action: Type.String(),
      target: Nullable(Type.String()),
      detail: Type.Record(Type.String(), Type.Unknown()),
    }),
  ),
  meta: PageMeta,
});

export const ConsoleFootprint = Type.Object({
  countries: Type.Array(Type.String()),
  currencies: Type.Array(Type.String()),
  updatedAt: Nullable(DateTime),
});

export const CompanySettingsSchema = Type.Object({
  company: CompanySchema,
  footprint: ConsoleFootprint,
  footprintChecks: Type.Object({ sandbox: Type.Boolean(), production: Type.Boolean() }),
  requireTotp: Type.Boolean(),
});

export const NoticesPage = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: Type.String(),
      subject: Type.String(),
      detail: Type.Record(Type.String(), Type.Unknown()),
      createdAt: DateTime,
      readAt: Nullable(DateTime),
      readBy: Nullable(Type.String()),
    }),
  ),
  meta: Type.Object({
    unread: Type.Integer(),
    nextBefore: Nullable(Type.Object({ at: Type.Integer(), id: Type.String() })),
  }),
});

export const UsagePage = Type.Object({
  data: Type.Array(
    Type.Object({
      date: Type.String(),
      apiCalls: Type.Record(Type.String(), Type.Integer()),
      keysPulled: Type.Integer(),
    }),
  ),
  meta: Type.Object({
    from: Type.String(),
    to: Type.String(),
    rateLimits: Type.Object({
      rateLimited: Type.Boolean(),
      perMinutePerRouteClass: Nullable(Type.Record(Type.String(), Type.Integer())),
      routeClasses: Type.Array(Type.String()),
      headroom: Type.String(),
    }),
    peaks: Type.Array(
      Type.Object({
        rateClass: Type.String(),
        bucket: Type.String(),
        peakPerMinute: Type.Integer(),
        peakMinute: DateTime,
        limitPerMinute: Nullable(Type.Integer()),
        peakPercentOfLimit: Nullable(Type.Number()),
        refused: Type.Integer(),
      }),
    ),
    busiestKeys: Type.Array(
      Type.Object({
        keyId: Type.String(),
        keyName: Type.String(),
        calls: Type.Integer(),
        failed: Type.Integer(),
        lastAt: DateTime,
      }),
    ),
  }),
});

export const ConsoleProductList = Type.Object({
  data: Type.Array(
    Type.Composite([
      ProductListItem,
      Type.Object({ publisherCompanyName: Nullable(Type.String()), skuCodes: Type.Array(Type.String()) }),
    ]),
  ),
  meta: Type.Composite([PageMeta, Type.Object({ localePreference: Type.Array(Type.String()) })]),
});

export const ConsoleAllocationList = Type.Object({
  data: Type.Array(
    Type.Composite([
      AllocationSchema,
      Type.Object({
        figures: Type.Object({
          allocationLeft: Type.Integer(),
          keysInStock: Nullable(Type.Integer()),
          sellableNow: Type.Integer(),
          ordersUse: Nullable(Type.String()),
        }),
        hotDropState: Nullable(
          Type.Object({
            liveReservations: Type.Integer(),
            reservedUnits: Type.Integer(),
            slotsLeft: Type.Integer(),
          }),
        ),
      }),
    ]),
  ),
  meta: PageMeta,
});

export const StockHistoryPoint = Type.Object({
  at: DateTime,
  remaining: Type.Integer(),
  event: Type.String(),
});

const DeliverySummary = Type.Object({
  endpointId: Type.String(),
  status: Type.String(),
  attempts: Type.Integer(),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
});

export const ConsoleWebhookList = Type.Object({
  data: Type.Array(Endpoint),
  meta: Type.Object({
    eventTypes: Type.Array(
      Type.Object({ type: Type.String(), example: Type.Record(Type.String(), Type.Unknown()) }),
    ),
  }),
});

export const EventDeliveriesSchema = Type.Object({
  eventId: Type.String(),
  eventType: Type.String(),
  createdAt: DateTime,
  publishedAt: Nullable(DateTime),
  envelope: Type.Record(Type.String(), Type.Unknown()),
  endpoints: Type.Array(
    Type.Object({
      endpointId: Type.String(),
      url: Type.String(),
      endpointStatus: OneOf(['active', 'disabled'] as const),
      deliveries: Type.Array(
        Type.Object({
          deliveryId: Type.String(),
          status: OneOf(['pending', 'held', 'succeeded', 'failed', 'superseded'] as const),
          createdAt: DateTime,
          nextAttemptAt: Nullable(DateTime),
          attempts: Type.Array(Attempt),
        }),
      ),
    }),
  ),
});

export const ReservationUnderReference = Type.Object({
  reservationId: Type.String(),
  skuCode: Type.String(),
  quantity: Type.Integer(),
  status: Type.String(),
  expiresAt: DateTime,
});

/** What happened to an order's keys after the sale, counted per key. */
export const AfterSaleSchema = Type.Object({
  refunded: Type.Integer(),
  chargedBack: Type.Integer(),
  returned: Type.Integer(),
  replaced: Type.Integer(),
});

/** A row of the console's order list: the API's order and what happened to its keys since. */
export const ConsoleOrderRow = Type.Composite([OrderAggregate, Type.Object({ afterSale: AfterSaleSchema })]);

export const OrderDetailSchema = Type.Object({
  order: OrderAggregate,
  bulkLine: Type.Boolean(),
  keys: Type.Array(
    Type.Object({
      id: Type.String(),
      state: Type.String(),
      takenBackBy: Nullable(OneOf(['refund', 'chargeback', 'return'] as const)),
      replacedBy: Nullable(Type.String()),
    }),
  ),
  afterSale: AfterSaleSchema,
  hold: Nullable(
    Type.Object({
      id: Type.String(),
      status: Type.String(),
      quantity: Type.Integer(),
      expiresAt: DateTime,
      createdAt: DateTime,
    }),
  ),
  reservation: Nullable(
    Type.Object({
      id: Type.String(),
      status: Type.String(),
      quantity: Type.Integer(),
      extended: Type.Boolean(),
      expiresAt: DateTime,
      createdAt: DateTime,
    }),
  ),
  refunds: Type.Array(RefundSchema),
  saleLines: Nullable(Type.Array(SaleLineSchema)),
  events: Type.Array(
    Type.Object({
      eventId: Type.String(),
      eventType: Type.String(),
      createdAt: DateTime,
      deliveries: Type.Array(DeliverySummary),
    }),
  ),
});
