/**
 * One small runner for background work: each job runs in its own loop, one round at a time. A round
 * that reports more work runs again at once; otherwise the job sleeps until its idle interval
 * passes or something wakes it (`wake`, for example a PostgreSQL NOTIFY through
 * `listenForWakeups`). A failing round is logged and retried on the next interval; `stop` ends the
 * loops, waits for the rounds in progress and lets each job finish what they started (in-flight
 * webhook sends, at most their 15 s timeout).
 *
 * Jobs must be safe to run in every process at once: they claim their rows in the database
 * (FOR UPDATE SKIP LOCKED and a lease on PostgreSQL, conditional updates elsewhere).
 */
export interface Job {
  name: string;
  /** Longest sleep between rounds when nothing wakes the job. */
  idleMs: number;
  /** One round; `true` when it did work and more may be waiting. */
  run(): Promise<boolean>;
  /** Finishes work a round started but did not wait for (called by `stop`, after the last round). */
  stop?(): Promise<void>;
}

interface Loop {
  job: Job;
  wake: (() => void) | null;
  woken: boolean;
  done: Promise<void> | null;
}

export class JobRunner {
  private readonly loops = new Map<string, Loop>();
  private running = false;

  constructor(private readonly onError: (job: string, err: unknown) => void = () => {}) {}

  add(job: Job): this {
    if (this.loops.has(job.name)) throw new Error(`Job ${job.name} is already registered`);
    this.loops.set(job.name, { job, wake: null, woken: false, done: null });
    if (this.running) this.startLoop(this.loops.get(job.name)!);
    return this;
  }

  /** Runs the named job (or every job) at once instead of at its next interval. */
  wake(name?: string): void {
    for (const loop of this.loops.values()) {
      if (name !== undefined && loop.job.name !== name) continue;
      loop.woken = true;
      loop.wake?.();
    }
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    for (const loop of this.loops.values()) this.startLoop(loop);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await Promise.all([...this.loops.values()].map((l) => l.done));
    await Promise.all([...this.loops.values()].map((l) => l.job.stop?.()));
  }

  private startLoop(loop: Loop): void {
    loop.done = (async () => {
      while (this.running) {
        loop.woken = false;
        let more = false;
        try {
          more = await loop.job.run();
        } catch (err) {
          this.onError(loop.job.name, err);
        }
        if (!this.running) break;
        if (more || loop.woken) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, loop.job.idleMs);
          function done() {
            clearTimeout(timer);
            loop.wake = null;
            resolve();
          }
          loop.wake = done;
        });
      }
    })();
  }
}
