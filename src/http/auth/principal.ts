import type { Environment } from '../../lib/environment.js';
import type { Scope } from './scopes.js';

/** Who is calling: the API key and its company, as the auth hook resolved them. */
export interface Principal {
  keyId: string;
  keyName: string;
  companyId: string;
  companyName: string;
  environment: Environment;
  scopes: ReadonlySet<Scope>;
  allowedIps: readonly string[] | null;
  expiresAt: number | null;
  productionAccess: boolean;
  /** Set for keys without the typed prefix (`service_sk_` only). */
  legacy: boolean;
}

/** The seller a request acts for: every seller read and write narrows by it. */
export interface SellerScope {
  sellerId: string;
  environment: Environment;
}
