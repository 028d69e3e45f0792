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
 * Signals this close to the first are the same request to stop: Ctrl-C in a terminal reaches
 * every process of the foreground group, so `npm start` delivers SIGINT to the server twice
 * (once from the terminal, once forwarded by npm) within a few milliseconds.
 */
export const SAME_SIGNAL_WINDOW_MS = 1_000;

/**
 * On SIGTERM or SIGINT runs `steps` in order (stop routing, stop background work, drain the
 * listeners, close the database) and exits 0 once all finished. If they have not finished
 * within `deadlineSeconds`, or a step fails, it exits 1 at once; so does a second signal sent
 * later than SAME_SIGNAL_WINDOW_MS after the first (someone pressing Ctrl-C again to force).
 */
export function exitGracefullyOnSignal(
  steps: ShutdownStep[],
  deadlineSeconds: number,
  log: ShutdownLog,
): void {
  let firstAt: number | undefined;
  const shutdown = async (signal: string) => {
    if (firstAt !== undefined) {
      if (performance.now() - firstAt < SAME_SIGNAL_WINDOW_MS) {
        log.info({ signal }, 'signal repeated while the shutdown starts: already draining');
        return;
      }
      log.error({ signal }, 'second signal during shutdown: exiting now');
      process.exit(1);
    }
    firstAt = performance.now();
    const begun = firstAt;
    log.info({ signal, deadlineSeconds }, 'shutting down: draining (send the signal again to force)');
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
