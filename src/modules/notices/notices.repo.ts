import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { ConsoleNoticesTable } from './notices.table.js';

export type NoticeRow = ConsoleNoticesTable;

export interface Scope {
  companyId: string;
  environment: string;
}

/** Writes notices; one whose `source` is already stored is skipped (each is written once). */
export async function insertNotices(ex: Executor, rows: NoticeRow[]): Promise<void> {
  if (rows.length === 0) return;
  await ex
    .insertInto('console_notices')
    .values(rows)
    .onConflict((oc) => oc.column('source').doNothing())
    .execute();
}

/** The published position the notice job has read up to (0 before its first round). */
export async function noticeCursor(ex: Executor, feed: string): Promise<number> {
  const cursor = await ex
    .selectFrom('console_notice_cursor')
    .select('published_seq')
    .where('name', '=', feed)
    .executeTakeFirst();
  return Number(cursor?.published_seq ?? 0);
}

/** Moves the cursor forward, never back (two processes may finish rounds out of order). */
export async function advanceNoticeCursor(ex: Executor, feed: string, reached: number): Promise<void> {
  await ex
    .insertInto('console_notice_cursor')
    .values({ name: feed, published_seq: reached })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({
        published_seq: sql`case when excluded.published_seq > console_notice_cursor.published_seq then excluded.published_seq else console_notice_cursor.published_seq end`,
      }),
    )
    .execute();
}

/** Published broadcast events of the given types in (after, upTo], in publication order. */
export const publishedEventsOfTypes = (
  ex: Executor,
  range: { after: number; upTo: number },
  types: string[],
  limit: number,
) =>
  ex
    .selectFrom('outbox_events')
    .select(['event_id', 'company_id', 'environment', 'event_type', 'payload', 'published_seq'])
    .where('published_seq', '>', range.after)
    .where('published_seq', '<=', range.upTo)
    .where('event_type', 'in', types)
    .where('target_endpoint_id', 'is', null)
    .orderBy('published_seq')
    .limit(limit)
    .execute();

/** A page of the scope's notices, newest first, before the keyset position when given. */
export function noticesPage(
  ex: Executor,
  scope: Scope,
  page: { unreadOnly: boolean; limit: number; before?: [number, string] },
) {
  let rows = ex
    .selectFrom('console_notices')
    .selectAll()
    .where('company_id', '=', scope.companyId)
    .where('environment', '=', scope.environment);
  if (page.unreadOnly) rows = rows.where('read_at', 'is', null);
  if (page.before) {
    const [at, id] = page.before;
    rows = rows.where((eb) =>
      eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', id)])]),
    );
  }
  return rows.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
}

export async function countUnreadNotices(ex: Executor, scope: Scope): Promise<number> {
  const row = await ex
    .selectFrom('console_notices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', scope.companyId)
    .where('environment', '=', scope.environment)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Sets one notice of the scope read (with who) or unread; false when the scope has no such notice. */
export async function setNoticeRead(
  ex: Executor,
  scope: Scope,
  id: string,
  read: { at: number; by: string } | null,
): Promise<boolean> {
  const result = await ex
    .updateTable('console_notices')
    .set(read ? { read_at: read.at, read_by: read.by } : { read_at: null, read_by: null })
    .where('id', '=', id)
    .where('company_id', '=', scope.companyId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks every unread notice of the scope read; how many were. */
export async function markAllRead(ex: Executor, scope: Scope, read: { at: number; by: string }) {
  const result = await ex
    .updateTable('console_notices')
    .set({ read_at: read.at, read_by: read.by })
    .where('company_id', '=', scope.companyId)
    .where('environment', '=', scope.environment)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
