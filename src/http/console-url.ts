/**
 * The console page that fixes a failure whose details name a `consoleAction`:
 * contracts and the partner catalog lead to the partners page, allocations to the allocations
 * page, key problems to the API keys page, and production access (KYB) and the wallet to the
 * company's standing in Settings, which says what the company has and what to do.
 */
export const CONSOLE_PAGES: Record<string, string> = {
  review_partner_contracts: '/console/catalog/partners',
  review_allocations: '/console/catalog/allocations',
  manage_api_keys: '/console/keys',
  complete_kyb: '/console/settings#standing',
  top_up_wallet: '/console/settings#standing',
  review_partner_catalog: '/console/catalog',
};

export function withConsoleUrl(details: Record<string, unknown>, publicUrl: string): Record<string, unknown> {
  const action = details.consoleAction;
  if (typeof action !== 'string' || 'consoleUrl' in details) return details;
  return { ...details, consoleUrl: `${publicUrl}${CONSOLE_PAGES[action] ?? '/console'}` };
}
