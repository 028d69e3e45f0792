import type { AppContext } from '../../context.js';
import { AttemptRecorder } from './attempt-recorder.js';
import * as deliveries from './deliveries.repo.js';
import type { Claimed } from './delivery-writes.repo.js';
import type * as endpointsRepo from './endpoints.repo.js';
import { type EnvelopeSource, envelopeBody } from './envelope.js';
import { DELIVERY_TIMEOUT_MS, sendWebhook } from './sender.js';
import { signatureHeaders } from './signing.js';

/** A claimed delivery belongs to its worker this long: the timeout plus room to record the result. */
export const LEASE_MS = DELIVERY_TIMEOUT_MS + 10_000;

export interface DeliveryLimits {
  /** Deliveries in flight in this process. */
  total: number;
  /** Deliveries in flight to one endpoint: a hanging receiver holds at most this many slots. */
  perEndpoint: number;
}
/**
 * One endpoint receives at most perEndpoint / its response time deliveries a second from a
 * process (320 a second at 200 ms; docs/events.md, "One endpoint's rate"); a hanging receiver
 * holds a quarter of the slots until its sends time out.
 */
export const DEFAULT_LIMITS: DeliveryLimits = { total: 256, perEndpoint: 64 };
/** Free slots worth a claim round: fewer wait for more sends to finish (or the idle interval). */
const CLAIM_BATCH = 16;

/**
 * Delivers due deliveries from this process. `round` claims as many as there are free slots
 * (on PostgreSQL with FOR UPDATE SKIP LOCKED, so processes never claim the same row) under a
 * lease, and sends each without waiting for the others; a process killed mid-send leaves its
 * rows leased, and any process claims them again once the lease has passed (at-least-once).
 */
export class DeliveryWorker {
  private readonly inFlight = new Map<string, number>();
  private readonly sends = new Set<Promise<void>>();
  private total = 0;
  private readonly secrets = new Map<string, string>();
  private readonly recorder: AttemptRecorder;

  constructor(
    private readonly ctx: AppContext,
    private readonly limits: DeliveryLimits = DEFAULT_LIMITS,
    private readonly onSettled: () => void = () => {},
  ) {
    this.recorder = new AttemptRecorder(ctx);
  }

  /** Claims and starts due deliveries; returns how many were started. */
  async round(): Promise<number> {
    const free = this.limits.total - this.total;
    // A few free slots wait for more sends to finish (onSettled wakes the job): one claim
    // statement per handful of deliveries, not per delivery.
    if (free <= 0 || (this.total > 0 && free < Math.min(CLAIM_BATCH, this.limits.total))) return 0;
    const saturated = [...this.inFlight].filter(([, n]) => n >= this.limits.perEndpoint).map(([id]) => id);
    const claimed = await this.claim(free, saturated);
    const started: Claimed[] = [];
    const released: string[] = [];
    for (const row of claimed) {
      const n = this.inFlight.get(row.endpoint_id) ?? 0;
      if (n >= this.limits.perEndpoint) released.push(row.id);
      else {
        this.inFlight.set(row.endpoint_id, n + 1);
        started.push(row);
      }
    }
    if (released.length > 0) await deliveries.releaseClaims(this.ctx.db, released);
    if (started.length > 0) await this.start(started);
    return started.length;
  }

  /** Resolves when every send started so far has been recorded. */
  async drain(): Promise<void> {
    while (this.sends.size > 0) await Promise.all([...this.sends]);
  }

  private claim(limit: number, saturated: string[]): Promise<Claimed[]> {
    const now = this.ctx.clock.now();
    return deliveries.claimDueDeliveries(this.ctx.db, now, now + LEASE_MS, limit, saturated);
  }

  private async start(rows: Claimed[]): Promise<void> {
    const events = await deliveries.eventsToSend(this.ctx.db, [...new Set(rows.map((r) => r.event_id))]);
    const eventById = new Map(events.map((e) => [e.event_id, e]));
    const endpoints = await deliveries.endpointsByIds(this.ctx.db, [
      ...new Set(rows.map((r) => r.endpoint_id)),
    ]);
    const endpointById = new Map(endpoints.map((e) => [e.id, e]));
    for (const row of rows) {
      this.total += 1;
      const send = this.deliver(row, eventById.get(row.event_id), endpointById.get(row.endpoint_id))
        .catch(() => undefined)
        .finally(() => {
          this.total -= 1;
          const n = (this.inFlight.get(row.endpoint_id) ?? 1) - 1;
          if (n <= 0) this.inFlight.delete(row.endpoint_id);
          else this.inFlight.set(row.endpoint_id, n);
          this.sends.delete(send);
          if (this.total === 0 || this.limits.total - this.total >= CLAIM_BATCH) this.onSettled();
        });
      this.sends.add(send);
    }
  }

  /** An endpoint secret, unsealed once per process (AES-GCM per delivery showed in the profile). */
  private secretOf(sealed: string): string {
    let secret = this.secrets.get(sealed);
    if (secret === undefined) {
      if (this.secrets.size >= 1024) this.secrets.clear();
      secret = this.ctx.secrets!.open(sealed);
      this.secrets.set(sealed, secret);
    }
    return secret;
  }

  private async deliver(
    row: Claimed,
    event: (EnvelopeSource & { target_endpoint_id: string | null }) | undefined,
    endpoint: endpointsRepo.EndpointRow | undefined,
  ): Promise<void> {
    if (!event || !endpoint) return;
    const now = this.ctx.clock.now();
    const body = envelopeBody(event);
    const secrets = [this.secretOf(endpoint.secret_sealed)];
    if (endpoint.previous_secret_sealed && (endpoint.previous_secret_until ?? 0) > now)
      secrets.push(this.secretOf(endpoint.previous_secret_sealed));
    const headers = signatureHeaders(secrets, event.event_id, Math.floor(now / 1000), body);
    const result = await sendWebhook(endpoint.url, body, headers, this.ctx.config.allowInsecureWebhooks);
    const test = event.target_endpoint_id !== null;
    await this.recorder.record({ row, eventType: event.event_type, test, result, attemptedAt: now });
  }
}
