/**
 * The sandbox module's front door: the seller scope every read narrows by (a sandbox key sees the
 * sandbox catalog only), the sandbox catalog's seeding, and the magic SKUs' fixtures.
 */
export {
  committedPriceDrift,
  isMagicSkuCode,
  KEYLESS_FIXTURE,
  MAGIC_SKUS,
} from './fixtures.js';
export { seedSandboxCatalog, sellerScope } from './sandbox.service.js';
