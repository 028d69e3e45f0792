import { SCOPES, type Scope } from '../../http/auth/scopes.js';
import type { Role } from './console.table.js';

/**
 * What a role may do in the console beyond reading keys, webhooks, orders, the catalog and the
 * request log: `orders:refund` declares refunds and chargebacks; `orders:manage` returns and
 * replaces keys and cancels pre-orders and reservations; `finance:read` opens statements, sales,
 * activity and invoices.
 */
export type Capability =
  | 'keys:write'
  | 'webhooks:write'
  | 'users:manage'
  | 'audit:read'
  | 'footprint:write'
  | 'allocations:request'
  | 'notices:mark'
  | 'orders:refund'
  | 'orders:manage'
  | 'finance:read';

const CAPABILITIES: Record<Role, readonly Capability[]> = {
  owner: [
    'keys:write',
    'webhooks:write',
    'users:manage',
    'audit:read',
    'footprint:write',
    'allocations:request',
    'notices:mark',
    'orders:refund',
    'orders:manage',
    'finance:read',
  ],
  developer: [
    'keys:write',
    'webhooks:write',
    'allocations:request',
    'notices:mark',
    'orders:refund',
    'orders:manage',
  ],
  finance: ['notices:mark', 'orders:refund', 'finance:read'],
  viewer: [],
};

export const can = (role: Role, capability: Capability): boolean => CAPABILITIES[role].includes(capability);

export const capabilitiesOf = (role: Role): readonly Capability[] => CAPABILITIES[role];

/**
 * The capability each scope stands for in the console. A console user acts with, and may hand a
 * key, exactly the scopes whose capability their role has; `null` is a read every role has.
 * Scopes the console never exercises itself (previewing and placing orders, pulling keys,
 * answering promotions) belong to whoever runs the integration: the roles that write keys.
 */
const SCOPE_CAPABILITY: Record<Scope, Capability | null> = {
  'seller:products:read': null,
  'seller:orders:preview': 'keys:write',
  'seller:keys:pull': 'keys:write',
  'seller:orders:manage': 'orders:manage',
  'seller:refunds:write': 'orders:refund',
  'seller:refunds:read': null,
  'seller:promotions:read': null,
  'seller:promotions:respond': 'keys:write',
  'seller:webhooks:read': null,
  'seller:webhooks:write': 'webhooks:write',
  'seller:keys:write': 'keys:write',
  'seller:finance:read': 'finance:read',
  'seller:account:manage': 'footprint:write',
};

/**
 * The scopes a console user acts with when the console calls a seller service (the same checks
 * as an API key's), and the ceiling of what they may hand a key they create, rotate or roll.
 */
export function scopesOf(role: Role): ReadonlySet<Scope> {
  return new Set(
    SCOPES.filter((scope) => {
      const needed = SCOPE_CAPABILITY[scope];
      return needed === null || can(role, needed);
    }),
  );
}

/** What the Keys page offers: a role that cannot write keys hands out nothing. */
export const grantableScopesOf = (role: Role): Scope[] =>
  can(role, 'keys:write') ? [...scopesOf(role)] : [];
