import type { Scope } from '../src/http/auth/scopes.js';
import { randomBase32 } from '../src/lib/ids.js';
import { mintKey } from '../src/modules/api-keys/api-keys.service.js';
import { type Company, createCompany } from '../src/modules/companies/companies.service.js';
import type { TestApp } from './harness.js';

export interface SellerOptions {
  environment?: 'sandbox' | 'production';
  scopes?: Scope[];
  allowedIps?: string[];
  expiresAt?: number | null;
  productionAccess?: boolean;
  apiAgreementSigned?: boolean;
  country?: string | null;
}

export interface TestSeller {
  company: Company;
  keyId: string;
  token: string;
  auth: { authorization: string };
}

/** A fresh seller company with one key; production sellers are approved and signed unless told. */
export async function makeSeller(t: TestApp, options: SellerOptions = {}): Promise<TestSeller> {
  const environment = options.environment ?? 'sandbox';
  const production = environment === 'production';
  const company = await createCompany(
    t.ctx,
    {
      name: `Seller ${randomBase32(6)}`,
      country: options.country === undefined ? 'DE' : options.country,
      productionAccess: options.productionAccess ?? production,
      apiAgreementSigned: options.apiAgreementSigned ?? production,
    },
    t.ctx.db,
  );
  const key = await makeKey(t, company.id, { ...options, environment });
  return { company, ...key };
}

export async function makeKey(t: TestApp, companyId: string, options: SellerOptions = {}) {
  const environment = options.environment ?? 'sandbox';
  const minted = await mintKey(
    t.ctx,
    {
      companyId,
      environment,
      name: `key ${randomBase32(4)}`,
      scopes: options.scopes,
      allowedIps: options.allowedIps ?? (environment === 'production' ? ['8.8.8.0/24'] : null),
      expiresAt: options.expiresAt ?? null,
    },
    t.ctx.db,
  );
  return { keyId: minted.id, token: minted.key, auth: { authorization: `Bearer ${minted.key}` } };
}
