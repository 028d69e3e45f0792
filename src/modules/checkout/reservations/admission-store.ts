import type { AppContext } from '../../../context.js';
import { DatabaseSlotStore } from './database-slot-store.repo.js';
import { RedisSlotStore } from './redis-slot-store.js';
import type { SlotStore } from './slot-store.js';

/** The admission store: Redis on PostgreSQL when REDIS_URL is set, else the database's slot rows. */
export function slotStoreOf(ctx: AppContext): SlotStore {
  if (ctx.redis && ctx.engine === 'postgres') return new RedisSlotStore(ctx.redis);
  return new DatabaseSlotStore();
}
