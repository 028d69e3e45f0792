import type { AllocationFigures } from '../../data/catalog/queries';

/** Why a SKU cannot be sold, in words (the API's `readinessBlockers`). */
export const BLOCKER_SENTENCES: Record<string, string> = {
  NO_SKU_SHARE: 'The publisher does not share this SKU with you, or has suspended its shares.',
  NO_ALLOCATION: 'You have no allocation on this SKU.',
  ALLOCATION_PAUSED: 'The publisher has paused this allocation.',
  ALLOCATION_REVOKED: 'The publisher has revoked this allocation.',
  LIFECYCLE_NOT_LIVE: 'The product or its release is not on sale (not released yet, delisted or archived).',
  NO_TERRITORY_PRICING: 'No country has a price for this release yet.',
};

/** What fixes it (the API's `recommendedAction`). */
export const ACTION_SENTENCES: Record<string, string> = {
  request_publisher_sku_share: 'Ask the publisher to share this SKU with you.',
  request_allocation: 'Request an allocation from the publisher.',
  wait_for_publisher_resume: 'Wait for the publisher to resume the allocation, or ask them about it.',
  wait_for_release: 'Wait for the release: it becomes sellable when the publisher puts it on sale.',
  request_territory_pricing: 'Ask the publisher to set a price in your countries.',
};

export const blockerSentence = (code: string) => BLOCKER_SENTENCES[code] ?? `Blocked: ${code}.`;
export const actionSentence = (code: string) => ACTION_SENTENCES[code] ?? code.replaceAll('_', ' ');

/** Why nothing can be sold now although every condition is met: the first figure that is zero. */
export function nothingNowSentence(figures: AllocationFigures): string {
  if (figures.ordersUse) return `Orders on this SKU use allocation ${figures.ordersUse}.`;
  if (figures.allocationLeft === 0) return 'Nothing is left on the allocation.';
  if (figures.keysInStock === 0) return 'No keys in stock: the publisher has to add keys.';
  return 'The keys left are promised to checkout holds and pre-orders.';
}
