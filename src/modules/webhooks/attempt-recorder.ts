import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { emit } from '../events/index.js';
import * as attemptsRepo from './attempts.repo.js';
import type { Claimed } from './delivery-writes.repo.js';
import * as deliveryWrites from './delivery-writes.repo.js';
import type { EndpointDisabledNotice } from './endpoint-disabled-notice.js';
import * as endpointsRepo from './endpoints.repo.js';
import { MAX_ATTEMPTS, nextAttemptAt } from './retry-schedule.js';
import type { SendResult } from './sender.js';

/** Consecutive failed attempts that disable an endpoint (docs/events.md, "Circuit breaker"). */
export const BREAKER_THRESHOLD = 10;

export interface AttemptOutcome {
  row: Claimed;
  eventType: string;
  /** A test send (one endpoint's own event): it neither counts toward the breaker nor resets it. */
  test: boolean;
  result: SendResult;
  /**
   * When the attempt was sent (service clock). Its retry is due a delay after this moment, not
   * after the outcome is written: a test clock moved while the response was in flight makes the
   * retry due at once instead of a delay after the move.
   */
  attemptedAt: number;
}

/** Longest an outcome waits for others to share its transaction. */
const GATHER_MS = 4;
/** Outcomes that start a transaction at once, without waiting out the gathering window. */
const FULL_BATCH = 64;

/**
 * Records finished attempts with group commit: an outcome waits up to GATHER_MS for others
 * (responses arrive one I/O callback at a time, and a SQLite transaction runs within one
 * callback, so without the window every outcome got its own commit), and outcomes that finish
 * while a transaction is writing wait for the next one, which writes them all. A batch that
 * fails is written again one outcome at a time; an outcome that still fails stays leased and is
 * sent again after the lease (at-least-once).
 */
export class AttemptRecorder {
  private queue: (AttemptOutcome & { done: () => void })[] = [];
  private flushing = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly ctx: AppContext) {}

  record(outcome: AttemptOutcome): Promise<void> {
    return new Promise((done) => {
      this.queue.push({ ...outcome, done });
      if (this.flushing) return;
      if (this.queue.length >= FULL_BATCH) {
        clearTimeout(this.timer);
        this.timer = undefined;
        void this.flush();
      } else this.timer ??= setTimeout(() => void this.flush(), GATHER_MS);
    });
  }

  private async flush(): Promise<void> {
    this.timer = undefined;
    this.flushing = true;
    while (this.queue.length > 0) {
      // One lock order for every process (endpoint rows), keeping each endpoint's own order.
      const batch = this.queue.splice(0).sort((a, b) => a.row.endpoint_id.localeCompare(b.row.endpoint_id));
      try {
        const disabled = await this.ctx.db
          .transaction()
          .execute((trx) => writeOutcomes(this.ctx, trx, batch));
        this.committed(batch, disabled);
      } catch {
        for (const one of batch)
          await this.ctx.db
            .transaction()
            .execute((trx) => writeOutcomes(this.ctx, trx, [one]))
            .then((disabled) => this.committed([one], disabled))
            .catch(() => undefined);
      }
      for (const item of batch) item.done();
    }
    this.flushing = false;
  }

  /** `sdapi_webhook_deliveries_total`, and the owners' e-mail of each endpoint this commit disabled. */
  private committed(outcomes: AttemptOutcome[], disabled: EndpointDisabledNotice[]): void {
    for (const notice of disabled) this.ctx.ownerMail.endpointDisabled(notice);
    for (const { row, result } of outcomes) {
      const outcome = result.ok ? 'delivered' : row.attempts + 1 >= MAX_ATTEMPTS ? 'failed' : 'retry';
      this.ctx.metrics.webhookDeliveries.inc({ outcome });
    }
  }
}

/** The log rows, each endpoint's breaker, and each delivery's next state; the endpoints it disabled. */
async function writeOutcomes(
  ctx: AppContext,
  trx: Executor,
  outcomes: AttemptOutcome[],
): Promise<EndpointDisabledNotice[]> {
  const now = ctx.clock.now();
  // `attempt` drives this delivery's retry schedule; the log numbers it after the attempts of
  // the event's earlier deliveries to the endpoint (a resend continues, it does not restart).
  const planned = outcomes.map((o) => {
    const attempt = o.row.attempts + 1;
    return {
      ...o,
      attempt,
      next: o.result.ok ? null : nextAttemptAt(o.attemptedAt, attempt, o.result.retryAfterSeconds),
    };
  });
  await attemptsRepo.insertAttempts(
    trx,
    planned.map(({ row, eventType, result, attempt, next, attemptedAt }) => ({
      delivery_id: row.id,
      endpoint_id: row.endpoint_id,
      event_id: row.event_id,
      event_type: eventType,
      attempt: row.attempt_base + attempt,
      status_code: result.statusCode,
      error: result.error,
      duration_ms: result.durationMs,
      attempted_at: attemptedAt,
      next_retry_at: next,
      response_body: result.responseBody,
    })),
  );
  // The breakers first: a failure to an endpoint that is (now) disabled waits `held`.
  const disabled = new Set<string>();
  const notices: EndpointDisabledNotice[] = [];
  for (const [endpointId, run] of failureRuns(planned.filter((o) => !o.test)))
    if (!(await countFailures(ctx, trx, endpointId, run, now, notices))) disabled.add(endpointId);
  // Successes in bulk (one statement per status code), failures one by one (their due times differ).
  const succeeded = new Map<number, string[]>();
  for (const { row, result, attempt, next } of planned) {
    if (result.ok) {
      const code = result.statusCode ?? 200;
      succeeded.set(code, [...(succeeded.get(code) ?? []), row.id]);
      continue;
    }
    await deliveryWrites.recordFailure(trx, row.id, {
      status: next === null ? 'failed' : disabled.has(row.endpoint_id) ? 'held' : 'pending',
      attempts: attempt,
      next_attempt_at: next ?? now,
      lease_until: 0,
      last_status_code: result.statusCode,
      last_error: result.error,
      updated_at: now,
    });
  }
  for (const [code, ids] of succeeded) await deliveryWrites.markSucceeded(trx, ids, code, now);
  return notices;
}

interface FailureRun {
  /** A success came first in this batch: the run restarts from zero. */
  afterSuccess: boolean;
  /** The errors of the failures after the last success, in attempt order. */
  errors: (string | null)[];
}

/** Per endpoint, in attempt order: the failures after its last success in this batch. */
function failureRuns(outcomes: AttemptOutcome[]) {
  const runs = new Map<string, FailureRun>();
  for (const { row, result } of outcomes) {
    const run = runs.get(row.endpoint_id) ?? { afterSuccess: false, errors: [] };
    if (result.ok) Object.assign(run, { afterSuccess: true, errors: [] });
    else run.errors.push(result.error);
    runs.set(row.endpoint_id, run);
  }
  return runs;
}

/**
 * Moves the endpoint's run of consecutive failures (restarted when a success came first). The
 * failure that makes it 10 disables an active endpoint and tells the company's other endpoints,
 * once per move, with exactly that count and that failure's error, however many failures this
 * batch (or another process) added at once. True while the endpoint is active; the endpoint
 * this call disabled joins `notices`.
 */
async function countFailures(
  ctx: AppContext,
  trx: Executor,
  endpointId: string,
  run: FailureRun,
  now: number,
  notices: EndpointDisabledNotice[],
) {
  const failures = run.errors.length;
  if (failures === 0) {
    await endpointsRepo.resetFailures(trx, endpointId);
    return true;
  }
  const counted = await endpointsRepo.addFailures(trx, endpointId, failures, run.afterSuccess);
  if (!counted) return true;
  if (counted.status !== 'active') return false;
  if (counted.consecutive_failures < BREAKER_THRESHOLD) return true;
  const before = counted.consecutive_failures - failures;
  const trippedAt = Math.max(BREAKER_THRESHOLD, before + 1);
  const reason = `${trippedAt} consecutive failed deliveries; last: ${run.errors[trippedAt - before - 1]}`;
  if (!(await endpointsRepo.disableEndpoint(trx, endpointId, reason, now))) return false;
  const endpointHost = new URL(counted.url).host;
  await emit(
    ctx,
    trx,
    [{ companyId: counted.company_id, environment: counted.environment }],
    'system.webhook_endpoint_disabled',
    {
      endpointId,
      endpointHost,
      reason,
      consecutiveFailures: trippedAt,
      disabledAt: new Date(now).toISOString(),
    },
  );
  notices.push({
    companyId: counted.company_id,
    environment: counted.environment,
    endpointId,
    endpointHost,
    reason,
    disabledAt: now,
  });
  return false;
}
