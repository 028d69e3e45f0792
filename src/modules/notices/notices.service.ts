import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import { isoOf, isoOrNull } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import { lastPublication } from '../webhooks/index.js';
import * as repo from './notices.repo.js';

/** The published events that become a notice, and the notice kind each one makes. */
const KIND_OF_EVENT: Record<string, string> = {
  'system.webhook_endpoint_disabled': 'endpoint_disabled',
  'allocation.depleted': 'allocation_depleted',
  'allocation.low_stock': 'allocation_low_stock',
  'contract.superseded': 'contract_superseded',
  'product.delisting_scheduled': 'delisting_scheduled',
};
/** The one id in each event's payload the notice is about. */
const SUBJECT_FIELD = ['endpointId', 'allocationId', 'contractId', 'productId'] as const;
const FEED = 'events';
const BATCH = 500;

interface NoticeInput {
  companyId: string;
  environment: string;
  kind: string;
  subject: string;
  detail: Record<string, unknown>;
  source: string;
}

async function insertNotices(ctx: AppContext, ex: Executor, notices: NoticeInput[]): Promise<void> {
  const now = ctx.clock.now();
  await repo.insertNotices(
    ex,
    notices.map((n) => ({
      id: uuidv7(now),
      company_id: n.companyId,
      environment: n.environment,
      kind: n.kind,
      subject: n.subject,
      detail: JSON.stringify(n.detail),
      source: n.source,
      created_at: now,
      read_at: null,
      read_by: null,
    })),
  );
}

/**
 * A paused contract has no event of its own: the notice is written in the transaction that
 * pauses it, for each seller the contract binds.
 */
export async function noticeContractPaused(
  ctx: AppContext,
  trx: Executor,
  recipients: readonly { companyId: string; environment: string }[],
  contractId: string,
  publisherCompanyId: string,
): Promise<void> {
  const at = ctx.clock.now();
  await insertNotices(
    ctx,
    trx,
    recipients.map((r) => ({
      ...r,
      kind: 'contract_paused',
      subject: contractId,
      detail: { contractId, partnerCompanyId: publisherCompanyId, pausedAt: isoOf(at) },
      source: `contract_paused:${contractId}:${r.companyId}:${r.environment}:${at}`,
    })),
  );
}

/**
 * One round of the notice job: the published events after the cursor that make notices, written
 * with the cursor's advance in one transaction. A notice's `source` (the event id) is unique, so
 * two processes reading the same events write each notice once. Returns whether a full batch was
 * read (more may wait).
 */
export async function collectNotices(ctx: AppContext): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const after = await repo.noticeCursor(trx, FEED);
    // Read the newest published position first: rows read below it are all committed ones.
    const upTo = Number((await lastPublication(trx))?.published_seq ?? 0);
    if (upTo <= after) return false;
    const events = await repo.publishedEventsOfTypes(trx, { after, upTo }, Object.keys(KIND_OF_EVENT), BATCH);
    await insertNotices(ctx, trx, events.map(noticeOfEvent));
    const full = events.length === BATCH;
    await repo.advanceNoticeCursor(trx, FEED, full ? Number(events.at(-1)!.published_seq) : upTo);
    return full;
  });
}

function noticeOfEvent(event: {
  event_id: string;
  company_id: string;
  environment: string;
  event_type: string;
  payload: string;
}): NoticeInput {
  const detail = JSON.parse(event.payload) as Record<string, unknown>;
  const field = SUBJECT_FIELD.find((name) => typeof detail[name] === 'string');
  return {
    companyId: event.company_id,
    environment: event.environment,
    kind: KIND_OF_EVENT[event.event_type]!,
    subject: field ? String(detail[field]) : '',
    detail,
    source: `event:${event.event_id}`,
  };
}

export interface NoticeQuery {
  unreadOnly: boolean;
  limit: number;
  /** Epoch ms and id of the last notice of the previous page. */
  before?: [number, string];
}

/** The company's notices in one environment, newest first, and how many are unread. */
export async function listNotices(
  ctx: AppContext,
  scope: { companyId: string; environment: string },
  query: NoticeQuery,
) {
  const [page, unread] = await Promise.all([
    repo.noticesPage(ctx.db, scope, query),
    repo.countUnreadNotices(ctx.db, scope),
  ]);
  return {
    data: page.map((row) => ({
      id: row.id,
      kind: row.kind,
      subject: row.subject,
      detail: JSON.parse(row.detail) as Record<string, unknown>,
      createdAt: isoOf(Number(row.created_at)),
      readAt: isoOrNull(row.read_at === null ? null : Number(row.read_at)),
      readBy: row.read_by,
    })),
    meta: {
      unread,
      nextBefore:
        page.length === query.limit ? { at: Number(page.at(-1)!.created_at), id: page.at(-1)!.id } : null,
    },
  };
}

/**
 * Marks one notice read or unread for the whole company (a notice is about the company's state,
 * so whoever handles it handles it for everyone). Another company's notice is NOT_FOUND.
 */
export async function markNotice(
  ctx: AppContext,
  scope: { companyId: string; environment: string },
  id: string,
  read: boolean,
  actor: string,
): Promise<void> {
  const at = ctx.clock.now();
  if (!(await repo.setNoticeRead(ctx.db, scope, id, read ? { at, by: actor } : null))) {
    throw fail('NOT_FOUND', `Notice ${id} not found.`);
  }
}

/** Marks every unread notice of the company in this environment read. */
export async function markAllNoticesRead(
  ctx: AppContext,
  scope: { companyId: string; environment: string },
  actor: string,
): Promise<number> {
  return repo.markAllRead(ctx.db, scope, { at: ctx.clock.now(), by: actor });
}
