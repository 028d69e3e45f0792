import type { Environment } from '../api/client';

/**
 * Every query key of the console, from one place: each resource's keys start with its own
 * prefix, so a mutation invalidates `consoleKeys.<resource>.all` and nothing else. Lists of the
 * session's environment carry it, so switching environments never shows the other's rows.
 */
export const consoleKeys = {
  session: { all: ['session'] as const },
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
} as const;
