import type { Environment } from '../api/client';

/**
 * Every query key of the console, from one place: each resource's keys start with its own
 * prefix, so a mutation invalidates `consoleKeys.<resource>.all` (or a narrower key of the same
 * resource) and nothing else. Lists of the session's environment carry it, so switching
 * environments never shows the other's rows; filtered lists carry their filters as text.
 */
export const consoleKeys = {
  session: { all: ['session'] as const },
  account: {
    all: ['account'] as const,
    recoveryCodes: ['account', 'recovery-codes'] as const,
  },
  invite: {
    all: ['invite'] as const,
    lookup: (token: string) => ['invite', token] as const,
  },
  home: {
    all: ['home'] as const,
    checklist: (environment: Environment) => ['home', environment] as const,
  },
  keys: {
    all: ['keys'] as const,
    list: (environment: Environment) => ['keys', environment] as const,
    allowlistCheck: (entries: readonly string[]) => ['allowlist-check', ...entries] as const,
  },
  team: {
    all: ['team'] as const,
    members: ['team', 'members'] as const,
    security: ['team', 'security'] as const,
  },
  audit: {
    all: ['audit'] as const,
    list: (environment: Environment, filters: string) => ['audit', environment, filters] as const,
  },
  webhooks: {
    all: ['webhooks'] as const,
    endpoints: (environment: Environment) => ['webhooks', 'endpoints', environment] as const,
    deliveries: {
      all: ['webhooks', 'deliveries'] as const,
      list: (environment: Environment, endpointId: string, filters: string) =>
        ['webhooks', 'deliveries', environment, endpointId, filters] as const,
    },
    event: (environment: Environment, eventId: string) =>
      ['webhooks', 'event', environment, eventId] as const,
  },
  catalog: {
    all: ['catalog'] as const,
    products: (environment: Environment, filters: string) =>
      ['catalog', 'products', environment, filters] as const,
    product: (environment: Environment, productId: string, locale: string | null) =>
      ['catalog', 'product', environment, productId, locale] as const,
    partners: (environment: Environment) => ['catalog', 'partners', environment] as const,
    stock: (environment: Environment, skuId: string) => ['catalog', 'stock', environment, skuId] as const,
  },
  allocations: {
    all: ['allocations'] as const,
    list: (environment: Environment) => ['allocations', 'list', environment] as const,
    requests: (environment: Environment) => ['allocations', 'requests', environment] as const,
  },
  finance: {
    all: ['finance'] as const,
    statements: (environment: Environment, from: string) =>
      ['finance', 'statements', environment, from] as const,
    invoices: (environment: Environment) => ['finance', 'invoices', environment] as const,
    activity: (environment: Environment, filters: string) =>
      ['finance', 'activity', environment, filters] as const,
    sales: (environment: Environment, filters: string) => ['finance', 'sales', environment, filters] as const,
    report: (reportId: string) => ['finance', 'report', reportId] as const,
  },
  usage: {
    all: ['usage'] as const,
    summary: (environment: Environment) => ['usage', environment] as const,
  },
  settings: {
    all: ['settings'] as const,
    company: ['settings', 'company'] as const,
  },
  notices: {
    all: ['notices'] as const,
    list: (environment: Environment, unreadOnly: boolean) => ['notices', environment, unreadOnly] as const,
  },
  logs: {
    all: ['logs'] as const,
    list: (environment: Environment, filters: string) => ['logs', 'list', environment, filters] as const,
    keys: (environment: Environment) => ['logs', 'keys', environment] as const,
    request: (environment: Environment, requestId: string) =>
      ['logs', 'request', environment, requestId] as const,
  },
  orders: {
    all: ['orders'] as const,
    list: (environment: Environment, filters: string) => ['orders', 'list', environment, filters] as const,
    detail: (environment: Environment, id: string) => ['orders', 'detail', environment, id] as const,
    reservations: (environment: Environment, orderReference: string) =>
      ['orders', 'reservations', environment, orderReference] as const,
  },
} as const;
