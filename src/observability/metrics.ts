import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Connection-pool use of the database handle (PostgreSQL); SQLite has one connection and no pool. */
export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}

/**
 * The process's Prometheus registry, served as `GET /metrics` on the operator listener
 * (docs/operations.md). Modules add their own series to `registry` (a `Gauge` with a
 * `collect()` reads its value at scrape time); the shared series live here.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'sdapi_http_requests_total',
    help: 'HTTP requests answered, by listener, method, route template and status.',
    labelNames: ['listener', 'method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'sdapi_http_request_duration_seconds',
    help: 'Time from request received to response sent, by listener, method, route template and status.',
    labelNames: ['listener', 'method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly httpErrors = new Counter({
    name: 'sdapi_http_errors_total',
    help: 'ApiError replies by error code and status.',
    labelNames: ['listener', 'code', 'status'] as const,
    registers: [this.registry],
  });

  readonly ordersPlaced = new Counter({
    name: 'sdapi_orders_placed_total',
    help: 'Orders and pulls committed (replays not counted), by environment, kind and outcome type.',
    labelNames: ['environment', 'kind', 'type'] as const,
    registers: [this.registry],
  });

  readonly keysDelivered = new Counter({
    name: 'sdapi_keys_delivered_total',
    help: 'Game keys handed out (orders, pulls, exports), by environment and kind.',
    labelNames: ['environment', 'kind'] as const,
    registers: [this.registry],
  });

  readonly keysReserved = new Counter({
    name: 'sdapi_keys_reserved_total',
    help: 'Keys reserved for later delivery (pre-orders, deferred pulls), by environment and kind.',
    labelNames: ['environment', 'kind'] as const,
    registers: [this.registry],
  });

  readonly orderFastPathRetries = new Counter({
    name: 'sdapi_order_fast_path_retries_total',
    help: 'Orders and reservation commits whose one statement (PostgreSQL) could not decide (the grant moved, too few keys, the reservation expired) and ran again on the locked path.',
    registers: [this.registry],
  });

  readonly orderLockCycleRetries = new Counter({
    name: 'sdapi_order_lock_cycle_retries_total',
    help: 'Orders, reservation commits and strict carts the database rolled back to break a lock cycle (deadlock) or a serialization conflict, and which ran again.',
    registers: [this.registry],
  });

  readonly reservations = new Counter({
    name: 'sdapi_reservations_total',
    help: 'Hot-drop reservations by environment and outcome: reserved, committed (fulfilled), released (cancelled).',
    labelNames: ['environment', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly holdsPlaced = new Counter({
    name: 'sdapi_checkout_holds_placed_total',
    help: 'Checkout holds (stock reservations with a TTL) placed, by environment.',
    labelNames: ['environment'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'sdapi_webhook_deliveries_total',
    help: 'Webhook delivery attempts recorded, by outcome: delivered (2xx), retry (failed, another attempt scheduled or held), failed (the last attempt failed).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  /** `poolUse` reads the database pool at scrape time (PostgreSQL); SQLite has no pool series. */
  constructor(poolUse?: () => PoolUse) {
    if (!poolUse) return;
    const pool = (name: string, help: string, read: (use: PoolUse) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(read(poolUse()));
        },
      });
    pool('sdapi_db_pool_connections', 'Open connections of the PostgreSQL pool.', (u) => u.total);
    pool('sdapi_db_pool_idle_connections', 'Idle connections of the PostgreSQL pool.', (u) => u.idle);
    pool('sdapi_db_pool_waiting_requests', 'Queries waiting for a pool connection.', (u) => u.waiting);
  }

  /** A committed order, bulk line or pull (not a replay): the order, its keys, its reserved keys. */
  recordFulfilment(
    environment: string,
    kind: 'order' | 'bulk_line' | 'pull' | 'export',
    view: { type: string; keys: readonly string[]; pulled: number; reserved?: { quantity: number } },
  ): void {
    this.ordersPlaced.inc({ environment, kind, type: view.type });
    // Keyless and deferred deliveries hand out no plaintext now; `pulled` counts the keys claimed.
    if (view.pulled > 0) this.keysDelivered.inc({ environment, kind }, view.pulled);
    if (view.reserved && view.reserved.quantity > 0)
      this.keysReserved.inc({ environment, kind }, view.reserved.quantity);
  }

  private collectingProcess = false;

  /** Node's process metrics (event-loop lag, heap, GC, CPU), prefixed like ours; from the first scrape-serving app on. */
  collectProcessMetrics(): void {
    if (this.collectingProcess) return;
    this.collectingProcess = true;
    collectDefaultMetrics({ register: this.registry, prefix: 'sdapi_' });
  }
}
