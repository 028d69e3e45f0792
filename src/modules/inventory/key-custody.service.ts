import * as repo from './key-custody.repo.js';

/**
 * Key custody after a sale (docs/after-sale.md): refunds and chargebacks quarantine keys, a
 * return of a never-revealed key restocks it, an operator reinstatement sells it again.
 * Every function runs inside the caller's transaction.
 */
export const lockKeys = repo.lockKeys;
export const quarantineKeys = repo.quarantine;
export const restockKeys = repo.restock;
export const unquarantineKeys = repo.unquarantine;
export type LockedKey = Awaited<ReturnType<typeof repo.lockKeys>>[number];
