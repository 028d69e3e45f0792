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
