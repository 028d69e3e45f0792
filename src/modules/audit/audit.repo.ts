import type { Executor } from '../../db/database.js';
import type { ConsoleAuditTable } from './audit.table.js';

export type AuditRow = ConsoleAuditTable;

export const insertAudit = (db: Executor, row: ConsoleAuditTable) =>
  db.insertInto('console_audit').values(row).execute();

/** What the audit page narrows to: one actor, one action, a time span (ms, from inclusive, to exclusive). */
export interface AuditFilter {
  actor?: string;
  action?: string;
  from?: number;
  to?: number;
}

/** Newest first by (at, id): after the row `after`, rows sharing its `at` continue by id. */
export const listAudit = (
  db: Executor,
  companyId: string,
  filter: AuditFilter,
  after: { at: number; id: string } | null,
  limit: number,
) => {
  let query = db.selectFrom('console_audit').selectAll().where('company_id', '=', companyId);
  if (filter.actor !== undefined) query = query.where('actor', '=', filter.actor);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('at', '<', filter.to);
  if (after)
    query = query.where(({ eb, or, and }) =>
      or([eb('at', '<', after.at), and([eb('at', '=', after.at), eb('id', '<', after.id)])]),
    );
  return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
};
