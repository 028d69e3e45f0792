import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { AgreementAmendmentsTable, AgreementsTable, PartnerConnectionsTable } from './partners.table.js';

export type ConnectionRow = Selectable<PartnerConnectionsTable>;
export type AgreementRow = Selectable<AgreementsTable>;

export async function insertConnection(
  ex: Executor,
  row: Insertable<PartnerConnectionsTable>,
): Promise<void> {
  await ex.insertInto('partner_connections').values(row).execute();
}

export function findConnection(ex: Executor, id: string): Promise<ConnectionRow | undefined> {
  return ex.selectFrom('partner_connections').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findConnectionBetween(
  ex: Executor,
  sellerId: string,
  publisherId: string,
  environment: string,
) {
  return ex
    .selectFrom('partner_connections')
    .selectAll()
    .where('seller_company_id', '=', sellerId)
    .where('publisher_company_id', '=', publisherId)
    .where('environment', '=', environment)
    .executeTakeFirst();
}

export function connectionsOfPublisher(
  ex: Executor,
  publisherId: string,
  environment: string,
): Promise<ConnectionRow[]> {
  return ex
    .selectFrom('partner_connections')
    .selectAll()
    .where('publisher_company_id', '=', publisherId)
    .where('environment', '=', environment)
    .execute();
}

export async function updateConnection(
  ex: Executor,
  id: string,
  patch: Updateable<PartnerConnectionsTable>,
): Promise<void> {
  await ex.updateTable('partner_connections').set(patch).where('id', '=', id).execute();
}

export async function insertAgreement(ex: Executor, row: Insertable<AgreementsTable>): Promise<void> {
  await ex.insertInto('agreements').values(row).execute();
}

export function findAgreement(ex: Executor, id: string): Promise<AgreementRow | undefined> {
  return ex.selectFrom('agreements').selectAll().where('id', '=', id).executeTakeFirst();
}

export function agreementsOfConnections(
  ex: Executor,
  connectionIds: readonly string[],
): Promise<AgreementRow[]> {
  if (connectionIds.length === 0) return Promise.resolve([]);
  return ex
    .selectFrom('agreements')
    .selectAll()
    .where('connection_id', 'in', connectionIds)
    .orderBy('created_at')
    .execute();
}

export async function updateAgreement(
  ex: Executor,
  id: string,
  patch: Updateable<AgreementsTable>,
): Promise<void> {
  await ex.updateTable('agreements').set(patch).where('id', '=', id).execute();
}

export async function insertAmendment(
  ex: Executor,
  row: Insertable<AgreementAmendmentsTable>,
): Promise<void> {
  await ex.insertInto('agreement_amendments').values(row).execute();
}

export function findAmendment(ex: Executor, id: string) {
  return ex.selectFrom('agreement_amendments').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function acceptAmendment(ex: Executor, id: string, at: number): Promise<void> {
  await ex
    .updateTable('agreement_amendments')
    .set({ status: 'accepted', accepted_at: at })
    .where('id', '=', id)
    .execute();
}

/** A seller's connections in an environment, with the publisher's name. */
export function connectionsOfSeller(ex: Executor, sellerId: string, environment: string) {
  return ex
    .selectFrom('partner_connections')
    .innerJoin('companies', 'companies.id', 'partner_connections.publisher_company_id')
    .selectAll('partner_connections')
    .select([
      'companies.name as publisher_name',
      'companies.country as publisher_country',
      'companies.website as publisher_website',
      'companies.description as publisher_description',
      'companies.logo_url as publisher_logo_url',
    ])
    .where('partner_connections.seller_company_id', '=', sellerId)
    .where('partner_connections.environment', '=', environment)
    .orderBy('partner_connections.created_at')
    .execute();
}

export function referenceRateCurrencies(ex: Executor) {
  return ex.selectFrom('reference_rates').select('currency_code').execute();
}
