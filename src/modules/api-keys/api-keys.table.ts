import type { Environment } from '../../lib/environment.js';

export interface ApiKeysTable {
  id: string;
  company_id: string;
  environment: Environment;
  name: string;
  /** SHA-256 hex of the whole token; the token itself is never stored. */
  token_hash: string;
  /** First characters of the token, for humans telling keys apart. */
  token_hint: string;
  /** JSON array of scope names. */
  scopes: string;
  /** JSON array of normalized allowlist entries, or null for any source. */
  allowed_ips: string | null;
  expires_at: number | null;
  parent_key_id: string | null;
  created_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
  /** The newest request time the request log has written for this key; null until first use. */
  last_used_at: number | null;
}
