import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { DisabledBy, WebhookEndpointsTable } from './webhooks.table.js';

/** Webhook endpoints: their rows, the breaker's failure run, disable and enable, and their health. */

export interface Tenant {
  companyId: string;
  environment: string;
}

export type EndpointRow = Selectable<WebhookEndpointsTable>;

export const insertEndpoint = (ex: Executor, row: Insertable<WebhookEndpointsTable>) =>
  ex.insertInto('webhook_endpoints').values(row).execute();

export const endpointOf = (ex: Executor, tenant: Tenant, id: string) =>
  ex
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', tenant.companyId)
    .where('environment', '=', tenant.environment)
    .executeTakeFirst();

export const endpointById = (ex: Executor, id: string) =>
  ex.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();

export const endpointsOf = (ex: Executor, tenant: Tenant) =>
  ex
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('company_id', '=', tenant.companyId)
    .where('environment', '=', tenant.environment)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

export async function countEndpoints(ex: Executor, tenant: Tenant): Promise<number> {
  const row = await ex
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', tenant.companyId)
    .where('environment', '=', tenant.environment)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const updateEndpoint = (ex: Executor, id: string, patch: Updateable<WebhookEndpointsTable>) =>
  ex.updateTable('webhook_endpoints').set(patch).where('id', '=', id).execute();

export const deleteEndpoint = async (ex: Executor, id: string) => {
  await ex.deleteFrom('webhook_attempts').where('endpoint_id', '=', id).execute();
  await ex.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
  await ex.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
};

/** Every endpoint of the given companies (both states): the publisher fans events out to them. */
export const endpointsOfCompanies = (ex: Executor, companyIds: readonly string[]) =>
  companyIds.length === 0
    ? Promise.resolve([] as EndpointRow[])
    : ex.selectFrom('webhook_endpoints').selectAll().where('company_id', 'in', companyIds).execute();

/** A success ends a run of failures (no write when there was none). */
export const resetFailures = (ex: Executor, endpointId: string) =>
  ex
    .updateTable('webhook_endpoints')
    .set({ consecutive_failures: 0 })
    .where('id', '=', endpointId)
    .where('consecutive_failures', '<>', 0)
    .execute();

/** Adds `count` failures to the run, or starts a new run of `count` (after a success). */
export const addFailures = (ex: Executor, endpointId: string, count: number, restart: boolean) =>
  ex
    .updateTable('webhook_endpoints')
    .set((eb) => ({ consecutive_failures: restart ? count : eb('consecutive_failures', '+', count) }))
    .where('id', '=', endpointId)
    .returning(['consecutive_failures', 'status', 'url', 'company_id', 'environment'])
    .executeTakeFirst();

/**
 * Active to disabled, and its deliveries waiting for an attempt held until enable; false when
 * another worker moved it first.
 */
export async function disableEndpoint(
  ex: Executor,
  endpointId: string,
  reason: string,
  now: number,
  by: DisabledBy = 'breaker',
) {
  const moved = await ex
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: reason, disabled_at: now, disabled_by: by, updated_at: now })
    .where('id', '=', endpointId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return false;
  await ex
    .updateTable('webhook_deliveries')
    .set({ status: 'held', updated_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
  return true;
}

/**
 * On enable: the endpoint's held deliveries (and any still pending, such as one published in
 * the instant of the disable) become pending and due now; claimed oldest event first.
 */
export const releaseHeld = (ex: Executor, endpointId: string, now: number) =>
  ex
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: now, updated_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('status', 'in', ['pending', 'held'])
    .execute();

/**
 * The tenant's endpoints with what their health needs, in one statement: per endpoint its last
 * successful attempt (newest first on the (endpoint_id, seq) index) and its deliveries awaiting
 * delivery (pending or held) and given up (failed), counted on the (endpoint_id, status) index.
 */
export function endpointHealthOf(ex: Executor, tenant: Tenant) {
  return ex
    .selectFrom('webhook_endpoints as e')
    .select(['e.id', 'e.url', 'e.status', 'e.disabled_reason', 'e.disabled_at', 'e.consecutive_failures'])
    .select((eb) => [
      eb
        .selectFrom('webhook_attempts as a')
        .select('a.attempted_at')
        .whereRef('a.endpoint_id', '=', 'e.id')
        .where('a.status_code', '>=', 200)
        .where('a.status_code', '<', 300)
        .orderBy('a.seq', 'desc')
        .limit(1)
        .as('last_success_at'),
      eb
        .selectFrom('webhook_deliveries as p')
        .select((c) => c.fn.countAll<number>().as('n'))
        .whereRef('p.endpoint_id', '=', 'e.id')
        .where('p.status', 'in', ['pending', 'held'])
        .as('pending_count'),
      eb
        .selectFrom('webhook_deliveries as f')
        .select((c) => c.fn.countAll<number>().as('n'))
        .whereRef('f.endpoint_id', '=', 'e.id')
        .where('f.status', '=', 'failed')
        .as('failed_count'),
    ])
    .where('e.company_id', '=', tenant.companyId)
    .where('e.environment', '=', tenant.environment)
    .orderBy('e.created_at')
    .orderBy('e.id')
    .execute();
}
