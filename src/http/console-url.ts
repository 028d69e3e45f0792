/**
 * The console page that fixes a failure whose details name a `consoleAction`: key problems lead
 * to the API keys page, the rest to Home, whose readiness checklist says what is missing.
 */
const CONSOLE_PAGES: Record<string, string> = {
  manage_api_keys: '/console/keys',
};

export function withConsoleUrl(details: Record<string, unknown>, publicUrl: string): Record<string, unknown> {
  const action = details.consoleAction;
  if (typeof action !== 'string' || 'consoleUrl' in details) return details;
  return { ...details, consoleUrl: `${publicUrl}${CONSOLE_PAGES[action] ?? '/console'}` };
}
