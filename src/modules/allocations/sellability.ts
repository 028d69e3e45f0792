/**
 * Sellability: a SKU is sellable for a seller only when the share, allocation,
 * product lifecycle and pricing gates all hold. Pure: the facts come from the repository.
 */
export type ReadinessBlocker =
  | 'NO_SKU_SHARE'
  | 'NO_ALLOCATION'
  | 'ALLOCATION_PAUSED'
  | 'ALLOCATION_REVOKED'
  | 'LIFECYCLE_NOT_LIVE'
  | 'NO_TERRITORY_PRICING';

export interface SellabilityFacts {
  skuShared: boolean;
  sharesSuspended: boolean;
  /** Status of the seller's allocations on the SKU, newest first; empty when none. */
  allocationStatuses: readonly string[];
  productStatus: string;
  productArchived: boolean;
  tradingState: string;
  launchPhase: string;
  releaseState: string;
  releaseDelisted: boolean;
  skuDelisted: boolean;
  churnPeriodHours: number | null;
  pricedCountries: number;
}

export interface Sellability {
  sellable: boolean;
  readinessBlockers: ReadinessBlocker[];
  recommendedAction: string | null;
}

const ACTIONS: Record<ReadinessBlocker, string> = {
  NO_SKU_SHARE: 'request_publisher_sku_share',
  NO_ALLOCATION: 'request_allocation',
  ALLOCATION_PAUSED: 'wait_for_publisher_resume',
  ALLOCATION_REVOKED: 'request_allocation',
  LIFECYCLE_NOT_LIVE: 'wait_for_release',
  NO_TERRITORY_PRICING: 'request_territory_pricing',
};

const HOUR_MS = 3_600_000;

/** The sandbox churn fixture is archived during every other period of the service clock. */
export function isChurnedAway(churnPeriodHours: number | null, nowMs: number): boolean {
  if (!churnPeriodHours) return false;
  return Math.floor(nowMs / (churnPeriodHours * HOUR_MS)) % 2 === 1;
}

export function isLifecycleLive(facts: SellabilityFacts, nowMs: number): boolean {
  return (
    facts.productStatus === 'active' &&
    !facts.productArchived &&
    !isChurnedAway(facts.churnPeriodHours, nowMs) &&
    facts.tradingState === 'trading' &&
    facts.launchPhase === 'released' &&
    facts.releaseState === 'available' &&
    !facts.releaseDelisted &&
    !facts.skuDelisted
  );
}

function allocationBlocker(statuses: readonly string[]): ReadinessBlocker | null {
  if (statuses.includes('active')) return null;
  if (statuses.length === 0) return 'NO_ALLOCATION';
  return statuses.includes('paused') ? 'ALLOCATION_PAUSED' : 'ALLOCATION_REVOKED';
}

export function evaluateSellability(facts: SellabilityFacts, nowMs: number): Sellability {
  const blockers: ReadinessBlocker[] = [];
  if (!facts.skuShared || facts.sharesSuspended) blockers.push('NO_SKU_SHARE');
  const allocation = allocationBlocker(facts.allocationStatuses);
  if (allocation) blockers.push(allocation);
  if (!isLifecycleLive(facts, nowMs)) blockers.push('LIFECYCLE_NOT_LIVE');
  if (facts.pricedCountries === 0) blockers.push('NO_TERRITORY_PRICING');
  const first = blockers[0];
  return {
    sellable: blockers.length === 0,
    readinessBlockers: blockers,
    recommendedAction: first ? ACTIONS[first] : null,
  };
}
