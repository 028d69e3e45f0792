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

const READ_SCOPES: readonly Scope[] = SCOPES.filter((scope) => scope.endsWith(':read'));

/**
 * The scopes a console user acts with when the console calls a seller service: the same checks
 * as an API key's. Owners and developers may hand any scope to a key they create.
 */
export function scopesOf(role: Role): ReadonlySet<Scope> {
  if (role === 'owner' || role === 'developer') return new Set(SCOPES);
  if (role === 'finance') return new Set(READ_SCOPES);
  return new Set(READ_SCOPES.filter((scope) => scope !== 'seller:finance:read'));
}
