import type { Db } from '../../db/database.js';
import type { ClockOffsetStore } from '../../lib/clock.js';

export function testClockStore(db: Db): ClockOffsetStore {
  return {
    async read() {
      const row = await db
        .selectFrom('test_clock')
        .select('offset_ms')
        .where('id', '=', 1)
        .executeTakeFirst();
      return Number(row?.offset_ms ?? 0);
    },
    async add(deltaMs) {
      const row = await db
        .updateTable('test_clock')
        .set((eb) => ({ offset_ms: eb('offset_ms', '+', deltaMs) }))
        .where('id', '=', 1)
        .returning('offset_ms')
        .executeTakeFirstOrThrow();
      return Number(row.offset_ms);
    },
  };
}
