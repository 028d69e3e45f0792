import { SCOPES, type Scope } from '../../http/auth/scopes.js';
import type { Role } from './console.table.js';

/** What a role may change in the console; every role may read keys, webhooks and the request log. */
export type Capability =
  | 'keys:write'
  | 'webhooks:write'
  | 'users:manage'
  | 'audit:read'
  | 'footprint:write'
  | 'allocations:request'
  | 'notices:mark';

const CAPABILITIES: Record<Role, readonly Capability[]> = {
  owner: [
    'keys:write',
    'webhooks:write',
    'users:manage',
    'audit:read',
    'footprint:write',
    'allocations:request',
    'notices:mark',
  ],
  developer: ['keys:write', 'webhooks:write', 'allocations:request', 'notices:mark'],
  finance: ['notices:mark'],
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
