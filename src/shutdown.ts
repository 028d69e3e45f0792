import type { FastifyInstance } from 'fastify';

const inFlight = new WeakMap<FastifyInstance, { count: number }>();

/** Counts the requests an application is answering (from onRequest until the response closes). */
export function trackRequestsInFlight(app: FastifyInstance): void {
  const tracker = { count: 0 };
  inFlight.set(app, tracker);
  app.addHook('onRequest', (_request, reply, done) => {
    tracker.count += 1;
    reply.raw.once('close', () => {
      tracker.count -= 1;
    });
    done();
  });
}

/**
 * Closes a listener once its requests in flight are answered. New connections are refused at
 * once; a connection still open once no request is in flight (a kept-alive one turned idle
 * after the close began, or one whose request never fully arrived) is closed then, rather than
 * holding the exit until its keep-alive timeout (72 s).
 */
export async function drainListener(app: FastifyInstance): Promise<void> {
  const tracker = inFlight.get(app);
  const sweep = setInterval(() => {
    if (!tracker || tracker.count === 0) app.server.closeAllConnections();
    else app.server.closeIdleConnections();
  }, 100);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}

/** One thing to stop at shutdown, in the order given. */
export interface ShutdownStep {
  name: string;
  run(): Promise<unknown>;
}

export interface ShutdownLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * On SIGTERM or SIGINT runs `steps` in order (stop routing, stop background work, drain the
 * listeners, close the database) and exits 0 once all finished. If they have not finished
 * within `deadlineSeconds`, or a step fails, or a second signal arrives, it exits 1 at once.
 */
export function exitGracefullyOnSignal(
  steps: ShutdownStep[],
  deadlineSeconds: number,
  log: ShutdownLog,
): void {
  let started = false;
  const shutdown = async (signal: string) => {
    if (started) {
      log.error({ signal }, 'second signal during shutdown: exiting now');
      process.exit(1);
    }
    started = true;
    const begun = performance.now();
    log.info({ signal, deadlineSeconds }, 'shutting down: draining');
    const deadline = setTimeout(() => {
      log.error({ deadlineSeconds }, 'shutdown deadline passed: exiting with work unfinished');
      process.exit(1);
    }, deadlineSeconds * 1000);
    deadline.unref();
    for (const step of steps) {
      try {
        await step.run();
      } catch (err) {
        log.error({ step: step.name, err }, 'shutdown step failed');
        process.exit(1);
      }
    }
    log.info({ durationMs: Math.round(performance.now() - begun) }, 'shut down cleanly');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
