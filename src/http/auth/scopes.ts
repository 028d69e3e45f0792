export const SCOPES = [
  'seller:products:read',
  'seller:orders:preview',
  'seller:keys:pull',
  'seller:orders:manage',
  'seller:refunds:write',
  'seller:refunds:read',
  'seller:promotions:read',
  'seller:promotions:respond',
  'seller:webhooks:read',
  'seller:webhooks:write',
  'seller:keys:write',
  'seller:finance:read',
  'seller:account:manage',
] as const;

export type Scope = (typeof SCOPES)[number];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** Opt-in scopes: granted only when asked for by name. */
export const OPT_IN_SCOPES: readonly Scope[] = [
  'seller:orders:manage',
  'seller:finance:read',
  'seller:account:manage',
];
