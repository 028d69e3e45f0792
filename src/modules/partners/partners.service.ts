import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import { forgetCompanyFacts, getCompany } from '../companies/index.js';
import { emit } from '../events/index.js';
import { noticeContractPaused } from '../notices/index.js';
import * as repo from './partners.repo.js';
import type {
  AgreementKind,
  AgreementStatus,
  CatalogShareMode,
  ConsumerGeoPolicy,
} from './partners.table.js';

export interface ConnectInput {
  sellerCompanyId: string;
  publisherCompanyId: string;
  environment?: 'production' | 'sandbox';
  catalogShareMode?: CatalogShareMode;
  invoicingEnabled?: boolean;
  selfBilling?: boolean;
}

export interface AgreementInput {
  kind: AgreementKind;
  bmaType?: string | null;
  status?: AgreementStatus;
  currencyMode?: 'catalog' | 'custom';
  currencyDetail?: Record<string, string[] | 'territory'>;
  permittedChannels?: 'own_storefront' | 'own_storefront_plus_named_marketplaces';
  marketplaceSlugs?: string[];
  consumerGeoPolicy?: ConsumerGeoPolicy;
  regionLocks?: string[];
}

/** The seller of a connection, as an event recipient; its cached terms are dropped on the way. */
function sellerOf(ctx: AppContext, connection: repo.ConnectionRow) {
  forgetCompanyFacts(ctx, connection.seller_company_id);
  return [{ companyId: connection.seller_company_id, environment: connection.environment }];
}

async function requireCompany(ctx: AppContext, ex: Executor, id: string, kind: 'seller' | 'publisher') {
  const company = await getCompany(ctx, id, ex);
  if (!company || company.kind !== kind) throw fail('NOT_FOUND', `No ${kind} company ${id}.`);
  return company;
}

export async function requireConnection(ex: Executor, id: string): Promise<repo.ConnectionRow> {
  const connection = await repo.findConnection(ex, id);
  if (!connection) throw fail('NOT_FOUND', `No partner connection ${id}.`);
  return connection;
}

/** Connects a seller to a publisher (one connection per pair and environment). */
export async function connect(
  ctx: AppContext,
  input: ConnectInput,
  ex: Executor,
): Promise<repo.ConnectionRow> {
  await requireCompany(ctx, ex, input.sellerCompanyId, 'seller');
  await requireCompany(ctx, ex, input.publisherCompanyId, 'publisher');
  const environment = input.environment ?? 'production';
  const existing = await repo.findConnectionBetween(
    ex,
    input.sellerCompanyId,
    input.publisherCompanyId,
    environment,
  );
  if (existing) return existing;
  const now = ctx.clock.now();
  const id = uuidv7(now);
  await repo.insertConnection(ex, {
    id,
    seller_company_id: input.sellerCompanyId,
    publisher_company_id: input.publisherCompanyId,
    environment,
    catalog_share_mode: input.catalogShareMode ?? 'per_sku',
    invoicing_enabled: input.invoicingEnabled ? 1 : 0,
    self_billing: input.selfBilling ? 1 : 0,
    created_at: now,
    updated_at: now,
  });
  return requireConnection(ex, id);
}

export async function addAgreement(
  ctx: AppContext,
  trx: Executor,
  connectionId: string,
  input: AgreementInput,
) {
  const connection = await requireConnection(trx, connectionId);
  const now = ctx.clock.now();
  const id = uuidv7(now);
  const status = input.status ?? 'active';
  await repo.insertAgreement(trx, {
    id,
    connection_id: connection.id,
    kind: input.kind,
    bma_type: input.kind === 'bma' ? (input.bmaType ?? 'api') : null,
    status,
    currency_mode: input.currencyMode ?? 'catalog',
    currency_detail: JSON.stringify(input.currencyDetail ?? {}),
    permitted_channels: input.permittedChannels ?? 'own_storefront',
    marketplace_slugs: JSON.stringify(input.marketplaceSlugs ?? []),
    consumer_geo_policy: input.consumerGeoPolicy ?? 'allow',
    region_locks: JSON.stringify((input.regionLocks ?? []).map((c) => c.toUpperCase())),
    superseded_by: null,
    activated_at: status === 'active' ? now : null,
    created_at: now,
    updated_at: now,
  });
  if (status === 'active') {
    await emit(ctx, trx, sellerOf(ctx, connection), 'contract.activated', {
      contractId: id,
      partnerCompanyId: connection.publisher_company_id,
    });
  }
  return requireAgreement(trx, id);
}

async function requireAgreement(ex: Executor, id: string): Promise<repo.AgreementRow> {
  const agreement = await repo.findAgreement(ex, id);
  if (!agreement) throw fail('NOT_FOUND', `No agreement ${id}.`);
  return agreement;
}

const NEXT_STATUS: Record<AgreementStatus, AgreementStatus[]> = {
  pending: ['active', 'terminated'],
  active: ['paused', 'terminated'],
  paused: ['active', 'terminated'],
  superseded: [],
  terminated: [],
};

/** Activates, pauses, resumes or terminates an agreement; activation announces contract.activated. */
export async function setAgreementStatus(
  ctx: AppContext,
  trx: Executor,
  id: string,
  status: AgreementStatus,
) {
  const agreement = await requireAgreement(trx, id);
  if (!NEXT_STATUS[agreement.status].includes(status)) {
    throw fail('VALIDATION_FAILED', `An agreement cannot move from ${agreement.status} to ${status}.`, {
      issues: [
        {
          field: 'status',
          in: 'body',
          message: `allowed: ${NEXT_STATUS[agreement.status].join(', ') || 'none'}`,
          keyword: 'enum',
        },
      ],
    });
  }
  const now = ctx.clock.now();
  await repo.updateAgreement(trx, id, {
    status,
    updated_at: now,
    ...(status === 'active' ? { activated_at: now } : {}),
  });
  if (status === 'paused') {
    const connection = await requireConnection(trx, agreement.connection_id);
    await noticeContractPaused(ctx, trx, sellerOf(ctx, connection), id, connection.publisher_company_id);
  }
  if (status === 'active' && agreement.status === 'pending') {
    const connection = await requireConnection(trx, agreement.connection_id);
    await emit(ctx, trx, sellerOf(ctx, connection), 'contract.activated', {
      contractId: id,
      partnerCompanyId: connection.publisher_company_id,
    });
  }
  return requireAgreement(trx, id);
}

/** Replaces an in-force term with a new one: the old is superseded, the new is active. */
export async function supersedeAgreement(ctx: AppContext, trx: Executor, id: string, input: AgreementInput) {
  const old = await requireAgreement(trx, id);
  if (old.status !== 'active' && old.status !== 'paused') {
    throw fail(
      'VALIDATION_FAILED',
      `Only an active or paused agreement can be superseded (it is ${old.status}).`,
    );
  }
  const replacement = await addAgreement(ctx, trx, old.connection_id, {
    ...input,
    kind: old.kind,
    status: 'active',
  });
  await repo.updateAgreement(trx, id, {
    status: 'superseded',
    superseded_by: replacement.id,
    updated_at: ctx.clock.now(),
  });
  const connection = await requireConnection(trx, old.connection_id);
  await emit(ctx, trx, sellerOf(ctx, connection), 'contract.superseded', {
    contractId: id,
    supersededBy: replacement.id,
  });
  return replacement;
}

export async function proposeAmendment(
  ctx: AppContext,
  trx: Executor,
  agreementId: string,
  description: string,
) {
  await requireAgreement(trx, agreementId);
  const now = ctx.clock.now();
  const id = uuidv7(now);
  await repo.insertAmendment(trx, {
    id,
    agreement_id: agreementId,
    description,
    status: 'proposed',
    created_at: now,
    accepted_at: null,
  });
  return { id, agreementId, description, status: 'proposed' as const };
}

export async function acceptAmendment(ctx: AppContext, trx: Executor, amendmentId: string) {
  const amendment = await repo.findAmendment(trx, amendmentId);
  if (!amendment) throw fail('NOT_FOUND', `No amendment ${amendmentId}.`);
  if (amendment.status === 'accepted') return { ...amendment, agreementId: amendment.agreement_id };
  const agreement = await requireAgreement(trx, amendment.agreement_id);
  const connection = await requireConnection(trx, agreement.connection_id);
  await repo.acceptAmendment(trx, amendmentId, ctx.clock.now());
  await emit(ctx, trx, sellerOf(ctx, connection), 'contract.amendment_accepted', {
    contractId: agreement.id,
    amendmentId,
  });
  return {
    id: amendmentId,
    agreementId: agreement.id,
    description: amendment.description,
    status: 'accepted' as const,
  };
}
