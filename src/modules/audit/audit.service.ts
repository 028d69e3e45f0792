import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import { decodeCursor, page } from '../../http/pagination.js';
import { uuidv7 } from '../../lib/ids.js';
import * as repo from './audit.repo.js';
import type { ConsoleAuditTable } from './audit.table.js';

export type AuditFilter = repo.AuditFilter;

/** Who acted and through what, as an audit row names them. */
export interface AuditBy {
  actor: string;
  source: ConsoleAuditTable['source'];
}

export interface AuditEntry extends AuditBy {
  companyId: string;
  action: string;
  target?: string | null;
  detail?: Record<string, unknown>;
}

/** One row of the audit log; never holds a secret, a token or an address. */
export async function recordAudit(ctx: AppContext, entry: AuditEntry, ex: Executor): Promise<void> {
  const at = ctx.clock.now();
  await repo.insertAudit(ex, {
    id: uuidv7(at),
    company_id: entry.companyId,
    at,
    actor: entry.actor,
    source: entry.source,
    action: entry.action,
    target: entry.target ?? null,
    detail: entry.detail ? JSON.stringify(entry.detail) : null,
  });
}

/**
 * One page of the company's audit log, newest first, by the keyset (at, id) in an opaque cursor
 * (src/http/pagination.ts): rows sharing a timestamp are neither skipped nor repeated.
 */
export async function listAudit(
  ctx: AppContext,
  companyId: string,
  query: { cursor?: string; limit: number } & AuditFilter,
  urlFor: (cursor: string) => string,
) {
  const { cursor, limit, ...filter } = query;
  if (filter.from !== undefined && filter.to !== undefined && filter.from >= filter.to) {
    throw fail('VALIDATION_FAILED', 'from must be earlier than to.', {
      issues: [{ field: 'from', in: 'querystring', message: 'must be earlier than to', keyword: 'range' }],
    });
  }
  const after = cursor ? decodeCursor(cursor, ['number', 'string']) : null;
  const rows = await repo.listAudit(
    ctx.db,
    companyId,
    filter,
    after ? { at: after[0] as number, id: after[1] as string } : null,
    limit + 1,
  );
  const { data, meta } = page(rows, limit, (row) => [Number(row.at), row.id], urlFor);
  return { data: data.map(auditView), meta };
}

function auditView(row: repo.AuditRow) {
  return {
    id: row.id,
    at: new Date(Number(row.at)).toISOString(),
    actor: row.actor,
    source: row.source,
    action: row.action,
    target: row.target,
    detail: row.detail ? (JSON.parse(row.detail) as Record<string, unknown>) : {},
  };
}

/** Who acted, as the audit log names them: a console user by email, an API key by id. */
export function auditActorOf(principal: { keyId: string; keyName: string }): AuditBy {
  return principal.keyId.startsWith('user:')
    ? { actor: `user:${principal.keyName}`, source: 'console' }
    : { actor: `key:${principal.keyId}`, source: 'api' };
}

/** The operator (its API or CLI) as the audit log names it. */
export const OPERATOR: AuditBy = { actor: 'operator', source: 'operator' };
