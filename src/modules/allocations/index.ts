/**
 * The allocations module's front door: grants (terms, pulls, pauses, headroom), their refund and
 * replacement policies, shares, sellability and availability, allocation requests, and the
 * statements checkout composes the grant pull into.
 */
export { findRequests } from './allocation-requests.repo.js';
export {
  listRequests,
  operatorRequestView,
  requestIncrease,
  requestView,
  resolveRequest,
} from './allocation-requests.service.js';
export { type AllocationRow, findShare, grantPull } from './allocations.repo.js';
export { registerAllocationRoutes } from './allocations.routes.js';
export { AllocationRequestSchema, AllocationSchema } from './allocations.schemas.js';
export {
  grantAllocation,
  pullEvents,
  pullReserved,
  pullUnlessPromised,
  recordPromise,
  recordPull,
  recordRestock,
  remainingOf,
  requireAllocation,
  setAllocationStatus,
  updateAllocation,
} from './allocations.service.js';
export { pageAllocations } from './allocations-read.service.js';
export { allocationsOnSkuQuery } from './availability.repo.js';
export { AvailabilityItem, registerAvailabilityRoutes } from './availability.routes.js';
export { availabilityOf, sellerAllocationsOn } from './availability.service.js';
export type { GrantPromises, PromisedExcept } from './grant-promises.js';
export {
  PLATFORM_REFUND_POLICY,
  type RefundPolicy,
  RefundPolicySchema,
  refundPolicyOf,
} from './refund-policy.js';
export { ReplacementPolicySchema, replacementPolicyOf, replacementRefusal } from './replacement-policy.js';
export { computeSellability, sellabilityGateRows } from './sellability.service.js';
export { setSkuShare, updateConnection } from './shares.service.js';
export { territoryBlock } from './territory.js';
export { sweepTimeDrivenSellability } from './time-sweep.service.js';
