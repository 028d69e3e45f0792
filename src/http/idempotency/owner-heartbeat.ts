import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AppContext } from '../../context.js';
import { type Db, openDatabase } from '../../db/database.js';
import { beat, forgetBeat, forgetBeatsOlderThan, ownerBeatAndRestart } from './owner-heartbeat.repo.js';

/** How often a process writes its heartbeat. */
const HEARTBEAT_MS = 1_000;
/** A process whose heartbeat is older than this is dead: its in-flight claims are free. */
export const STALE_MS = 5_000;
/** Heartbeat rows of processes gone this long are deleted by any process. */
const FORGET_MS = 24 * 60 * 60 * 1000;

interface Heartbeat {
  processId: Promise<string>;
  stop(): Promise<void>;
}

const heartbeats = new WeakMap<AppContext, Heartbeat>();

/**
 * The heartbeat of this process (started at its first claim): its row in `process_heartbeats`
 * is written every second, on a connection of its own on PostgreSQL so that a busy pool never
 * delays it. Claims name the process (`owner`); once the row is older than STALE_MS the
 * process counts as dead and other processes take its claims over (`isOwnerDead`).
 */
function start(ctx: AppContext): Heartbeat {
  const id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const own = ctx.engine === 'postgres' ? openDatabase(ctx.config.database, { poolSize: 1 }) : null;
  const db = own?.db ?? ctx.db;
  let stopped = false;
  const timer = setInterval(() => {
    if (!stopped) beat(db, id).catch(() => undefined);
  }, HEARTBEAT_MS);
  timer.unref();
  const first = (async () => {
    await forgetBeatsOlderThan(db, FORGET_MS);
    await beat(db, id);
    return id;
  })();
  // A start while the database is down is tried again at the next claim.
  first.catch(() => heartbeats.delete(ctx));
  const heartbeat: Heartbeat = {
    processId: first,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await forgetBeat(db, id).catch(() => undefined);
      await own?.close();
    },
  };
  ctx.atClose(() => heartbeat.stop());
  return heartbeat;
}

/** This process's id as claims name it, once its first heartbeat is stored. */
export function processIdOf(ctx: AppContext): Promise<string> {
  let heartbeat = heartbeats.get(ctx);
  if (!heartbeat) {
    heartbeat = start(ctx);
    heartbeats.set(ctx, heartbeat);
  }
  return heartbeat.processId;
}

/**
 * Whether the process that owns a claim stopped beating. On PostgreSQL not within STALE_MS of
 * the database's own start: after a restart, live processes need a moment to beat again, and
 * a request of theirs that outlived the restart may still commit. A promoted standby keeps its
 * start time, so this spares no one after a failover: orders are fenced (claim-fence.ts) and
 * need it not; the other keyed routes still do after a restart.
 */
export async function isOwnerDead(db: Db, owner: string): Promise<boolean> {
  const { alive, restarted } = await ownerBeatAndRestart(db, owner, STALE_MS);
  return !alive && !restarted;
}
