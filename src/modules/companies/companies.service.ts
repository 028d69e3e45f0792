import type { AppContext } from '../../context.js';
import { type Executor, fromBool } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import { isoOrNull } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import * as repo from './companies.repo.js';
import type { CompanyKind } from './companies.table.js';
import { validFootprint } from './footprint.js';

export interface Company {
  id: string;
  name: string;
  kind: CompanyKind;
  country: string | null;
  productionAccess: boolean;
  apiAgreementSigned: boolean;
  checkoutHoldEnabled: boolean;
  keylessEnabled: boolean;
  preorderVerifiedAt: number | null;
  createdAt: number;
}

export interface CreateCompanyInput {
  /** A fixed id, for fixtures; generated otherwise. */
  id?: string;
  name: string;
  kind?: CompanyKind;
  country?: string | null;
  productionAccess?: boolean;
  apiAgreementSigned?: boolean;
}

export const toCompany = (row: repo.CompanyRow): Company => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  country: row.country,
  productionAccess: row.production_access === 1,
  apiAgreementSigned: row.api_agreement_signed === 1,
  checkoutHoldEnabled: row.checkout_hold_enabled === 1,
  keylessEnabled: row.keyless_enabled === 1,
  preorderVerifiedAt: row.preorder_verified_at,
  createdAt: row.created_at,
});

export async function createCompany(
  ctx: AppContext,
  input: CreateCompanyInput,
  ex: Executor,
): Promise<Company> {
  const now = ctx.clock.now();
  const id = input.id ?? uuidv7(now);
  await repo.insertCompany(ex, {
    id,
    name: input.name,
    kind: input.kind ?? 'seller',
    country: input.country ?? null,
    production_access: fromBool(input.productionAccess),
    api_agreement_signed: fromBool(input.apiAgreementSigned),
    created_at: now,
    updated_at: now,
  });
  const company = await repo.findCompany(ex, id);
  if (!company) throw new Error(`company ${id} vanished after insert`);
  return toCompany(company);
}

export async function getCompany(ctx: AppContext, id: string, ex: Executor): Promise<Company | null> {
  const row = await repo.findCompany(ex, id);
  return row ? toCompany(row) : null;
}

export const companyView = (company: Company) => ({
  id: company.id,
  name: company.name,
  kind: company.kind,
  country: company.country,
  productionAccess: company.productionAccess,
  apiAgreementSigned: company.apiAgreementSigned,
  checkoutHoldEnabled: company.checkoutHoldEnabled,
  keylessEnabled: company.keylessEnabled,
  preorderVerifiedAt: isoOrNull(company.preorderVerifiedAt),
  createdAt: isoOrNull(company.createdAt),
});

/** No seller company yet: the first start of a fresh installation. */
export async function isEmptyInstallation(ctx: AppContext): Promise<boolean> {
  return (await repo.countSellers(ctx.db)) === 0;
}

export interface Footprint {
  countries: string[];
  currencies: string[];
  updatedAt: number | null;
}

export async function getFootprint(ctx: AppContext, companyId: string, ex: Executor): Promise<Footprint> {
  const row = await repo.findFootprint(ex, companyId);
  if (!row) return { countries: [], currencies: [], updatedAt: null };
  return {
    countries: JSON.parse(row.countries),
    currencies: JSON.parse(row.currencies),
    updatedAt: row.updated_at,
  };
}

/** PUT /me/footprint: both sets, checked by validFootprint, in one write. */
export async function replaceFootprint(
  ctx: AppContext,
  companyId: string,
  input: { countries: string[]; currencies: string[] },
): Promise<Footprint> {
  const { countries, currencies } = validFootprint(input);
  const now = ctx.clock.now();
  await repo.upsertFootprint(ctx.db, companyId, countries, currencies, now);
  forgetCompanyFacts(ctx, companyId);
  return { countries, currencies, updatedAt: now };
}

/** The company and its footprint, from the ~60 s company cache (writers here drop the entry). */
export function companyFacts(ctx: AppContext, companyId: string) {
  return ctx.companyCache.getOrLoad(companyId, ctx.clock.now(), async () => {
    const [company, footprint] = await Promise.all([
      getCompany(ctx, companyId, ctx.db),
      getFootprint(ctx, companyId, ctx.db),
    ]);
    return { company, footprint };
  }) as Promise<{ company: Company | null; footprint: Footprint }>;
}

export interface CompanyPatch {
  name?: string;
  country?: string | null;
  productionAccess?: boolean;
  apiAgreementSigned?: boolean;
  checkoutHoldEnabled?: boolean;
  keylessEnabled?: boolean;
  /** Pre-order capability: verified now (true) or withdrawn (false). */
  preorderVerified?: boolean;
  website?: string | null;
  description?: string | null;
  logoUrl?: string | null;
}

/** Operator edits of a company: country, production gates and capabilities. */
export async function updateCompany(ctx: AppContext, id: string, patch: CompanyPatch): Promise<Company> {
  const now = ctx.clock.now();
  const bool = (v: boolean | undefined) => (v === undefined ? undefined : fromBool(v));
  const columns = {
    name: patch.name,
    country: patch.country,
    production_access: bool(patch.productionAccess),
    api_agreement_signed: bool(patch.apiAgreementSigned),
    checkout_hold_enabled: bool(patch.checkoutHoldEnabled),
    keyless_enabled: bool(patch.keylessEnabled),
    preorder_verified_at:
      patch.preorderVerified === undefined ? undefined : patch.preorderVerified ? now : null,
    website: patch.website,
    description: patch.description,
    logo_url: patch.logoUrl,
  };
  await repo.updateCompany(ctx.db, id, {
    ...Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined)),
    updated_at: now,
  });
  forgetCompanyFacts(ctx, id);
  ctx.authCache.invalidateCompany(id);
  const company = await getCompany(ctx, id, ctx.db);
  if (!company) throw fail('NOT_FOUND', `Company ${id} does not exist.`);
  return company;
}

/** Drops this process's cached facts of a company (identity, footprint, agreement terms). */
export function forgetCompanyFacts(ctx: AppContext, companyId: string): void {
  ctx.companyCache.delete(companyId);
  for (const environment of ['production', 'sandbox'])
    ctx.companyCache.delete(`terms:${companyId}:${environment}`);
}
