/**
 * The sandbox module's front door: a sandbox seller's provisioning with the fixture catalog (run
 * once per seller and process, when the seller a request acts for is resolved), the sandbox
 * catalog's seeding, and the magic SKUs' fixtures.
 */
export {
  committedPriceDrift,
  KEYLESS_FIXTURE,
  MAGIC_SKUS,
} from './fixtures.js';
export { ensureSandboxProvisioned, seedSandboxCatalog } from './sandbox.service.js';
