/** An endpoint the delivery worker disabled after its last failed attempt. */
export interface EndpointDisabledNotice {
  companyId: string;
  environment: string;
  endpointId: string;
  endpointHost: string;
  reason: string;
  disabledAt: number;
}

/**
 * Who is told of a disabled endpoint besides the event feed: the company's console owners, by
 * mail, after the commit. The console owns its users, and depends on webhooks, so webhooks is
 * given this (`AppContext.ownerMail`, wired where the context is made) instead of importing it.
 */
export interface OwnerMail {
  endpointDisabled(notice: EndpointDisabledNotice): void;
}
