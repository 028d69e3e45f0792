import { randomBase32 } from '../../lib/ids.js';

/**
 * Synthetic, unmistakable sandbox key text: never a real redeemable key. Sandbox pools are seeded
 * with it, and sandbox claims mint it when a replenished pool runs dry.
 */
export const syntheticKeyText = (skuCode: string): string =>
  `SBX-${skuCode.replace(/^SANDBOX-/, '').replace(/-001$/, '')}-${randomBase32(12).toUpperCase()}`;
