import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { Environment } from '../../lib/environment.js';
import type { ApiKeysTable } from './api-keys.table.js';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export async function insertKey(ex: Executor, row: Insertable<ApiKeysTable>): Promise<void> {
  await ex.insertInto('api_keys').values(row).execute();
}

/** A live (not revoked) key by token hash, with the company facts auth needs. */
export function findLiveKeyByHash(ex: Executor, tokenHash: string) {
  return ex
    .selectFrom('api_keys')
    .innerJoin('companies', 'companies.id', 'api_keys.company_id')
    .selectAll('api_keys')
    .select(['companies.name as company_name', 'companies.production_access'])
    .where('api_keys.token_hash', '=', tokenHash)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
}

export function findKeyOfCompany(
  ex: Executor,
  companyId: string,
  keyId: string,
): Promise<ApiKeyRow | undefined> {
  return ex
    .selectFrom('api_keys')
    .selectAll()
    .where('id', '=', keyId)
    .where('company_id', '=', companyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export function listLiveKeys(
  ex: Executor,
  companyId: string,
  environment: Environment,
): Promise<ApiKeyRow[]> {
  return ex
    .selectFrom('api_keys')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('environment', '=', environment)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function setAllowedIps(ex: Executor, keyId: string, allowedIps: string | null): Promise<void> {
  await ex.updateTable('api_keys').set({ allowed_ips: allowedIps }).where('id', '=', keyId).execute();
}

export async function replaceToken(
  ex: Executor,
  keyId: string,
  token: { hash: string; hint: string },
  at: number,
): Promise<void> {
  await ex
    .updateTable('api_keys')
    .set({ token_hash: token.hash, token_hint: token.hint, rotated_at: at })
    .where('id', '=', keyId)
    .execute();
}

export async function revokeKey(ex: Executor, keyId: string, at: number): Promise<boolean> {
  const result = await ex
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Moves each key's last-used time forward to the given time, never back: a batch written late
 * (or by another process) cannot undo a newer one.
 */
export async function markKeysUsed(ex: Executor, newestByKey: ReadonlyMap<string, number>): Promise<void> {
  for (const [keyId, at] of newestByKey) {
    await ex
      .updateTable('api_keys')
      .set({ last_used_at: at })
      .where('id', '=', keyId)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
      .execute();
  }
}
