import type { FastifyInstance } from 'fastify';

/**
 * Closes a listener once its requests in flight are answered. Fastify closes the connections
 * idle when it starts closing; a kept-alive connection whose request was still running then
 * turns idle afterwards and would hold the close until its keep-alive timeout (72 s), so idle
 * connections are closed again every 100 ms until the server has closed.
 */
export async function drainListener(app: FastifyInstance): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
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
