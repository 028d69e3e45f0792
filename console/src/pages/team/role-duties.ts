import type { Role } from '../../api/client';

export const ROLES: Role[] = ['owner', 'developer', 'finance', 'viewer'];

/** What each role may do, in a line (the full matrix is in the console's documentation). */
export const ROLE_DUTIES: Record<Role, string> = {
  owner: 'Everything: the team, roles and two-factor rule, the audit log, finance, keys and webhooks.',
  developer:
    'API keys, webhooks, allocation requests; refunds, returns and replacements of keys. No finance, no team.',
  finance: 'Statements, sales, activity and invoices; refunds and chargebacks. Reads the rest.',
  viewer: 'Reads keys, webhooks, orders, the catalog and the request log. Changes nothing, sees no finance.',
};
