/**
 * The inventory module's front door: pools and their stock, the claim of keys for an order,
 * key custody (lock, quarantine, restock), key import, and synthetic sandbox key text.
 */

export { claimedIds } from './claims.repo.js';
export {
  type ClaimedKey,
  claimKeys,
  claimKeysOrShort,
  keyIdsOfOrders,
  keysOfOrder,
  openKeys,
  stockUpTo,
} from './claims.service.js';
export { availableInPools, type PoolRow } from './inventory.repo.js';
export {
  type LockedKey,
  lockKeys,
  quarantineKeys,
  restockKeys,
  unquarantineKeys,
} from './key-custody.service.js';
export { importKeys } from './key-import.service.js';
export {
  choosePools,
  createPool,
  poolsFor,
  poolsOfSku,
  poolView,
  requirePool,
  stockOf,
} from './pools.service.js';
export { syntheticKeyText } from './synthetic-keys.js';
