import type { Environment } from '../../lib/environment.js';

export const ROLES = ['owner', 'developer', 'finance', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export interface ConsoleUsersTable {
  id: string;
  company_id: string;
  /** Lower-cased; one user per address across every company. */
  email: string;
  role: Role;
  /** argon2id PHC string. */
  password_hash: string;
  /** The TOTP secret, sealed with the master key when one is configured. */
  totp_secret: string | null;
  totp_enabled_at: number | null;
  /** The newest TOTP step (Unix time / 30 s) a code was accepted for; a code of it or earlier is refused. */
  totp_last_step: number;
  password_changed_at: number;
  created_at: number;
  removed_at: number | null;
}

export interface ConsoleInvitesTable {
  /** SHA-256 of the link's token; the token is printed once and never stored. */
  token_hash: string;
  id: string;
  company_id: string;
  email: string;
  role: Role;
  invited_by: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface ConsoleSessionsTable {
  /** SHA-256 of the cookie's opaque id. */
  id_hash: string;
  user_id: string;
  csrf_token: string;
  environment: Environment;
  created_at: number;
  last_seen_at: number;
  /** The absolute expiry; the idle expiry is last_seen_at plus the idle window. */
  expires_at: number;
  /** Wrong current passwords and codes given inside this session (see in-session-checks.ts). */
  failed_checks: number;
}

/** A one-time code that stands in for an authenticator code; only its SHA-256 is kept. */
export interface ConsoleRecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

export interface ConsoleSigninFailuresTable {
  /** `account:<sha256 of email>` or `address:<sha256 of peppered address>`. */
  subject: string;
  failures: number;
  last_failure_at: number;
  blocked_until: number;
}

export interface ConsoleSettingsTable {
  company_id: string;
  require_totp: number;
  updated_at: number;
}
