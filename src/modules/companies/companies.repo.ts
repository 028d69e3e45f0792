import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { CompaniesTable } from './companies.table.js';

export type CompanyRow = Selectable<CompaniesTable>;

export async function insertCompany(ex: Executor, row: Insertable<CompaniesTable>): Promise<void> {
  await ex.insertInto('companies').values(row).execute();
}

export function findCompany(ex: Executor, id: string): Promise<CompanyRow | undefined> {
  return ex.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The names of the given companies (a list of products names each one's publisher). */
export function companyNames(ex: Executor, ids: readonly string[]): Promise<{ id: string; name: string }[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return ex.selectFrom('companies').select(['id', 'name']).where('id', 'in', ids).execute();
}

export async function countSellers(ex: Executor): Promise<number> {
  const row = await ex
    .selectFrom('companies')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kind', '=', 'seller')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findFootprint(ex: Executor, companyId: string) {
  return ex
    .selectFrom('seller_footprints')
    .selectAll()
    .where('company_id', '=', companyId)
    .executeTakeFirst();
}

/** Countries and currencies are written together, in one statement. */
export async function upsertFootprint(
  ex: Executor,
  companyId: string,
  countries: string[],
  currencies: string[],
  at: number,
): Promise<void> {
  const values = {
    countries: JSON.stringify(countries),
    currencies: JSON.stringify(currencies),
    updated_at: at,
  };
  await ex
    .insertInto('seller_footprints')
    .values({ company_id: companyId, ...values })
    .onConflict((oc) => oc.column('company_id').doUpdateSet(values))
    .execute();
}

export async function updateCompany(
  ex: Executor,
  id: string,
  patch: Updateable<CompaniesTable>,
): Promise<void> {
  await ex.updateTable('companies').set(patch).where('id', '=', id).execute();
}

/** The oldest seller company of this name (the demo seller is found by its fixed name). */
export function findFirstSellerNamed(ex: Executor, name: string): Promise<{ id: string } | undefined> {
  return ex
    .selectFrom('companies')
    .select('id')
    .where('kind', '=', 'seller')
    .where('name', '=', name)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}
