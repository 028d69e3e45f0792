import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SQLite file database: WAL checkpoints on their own thread', () => {
  it('copies committed pages into the database file without the writer checkpointing', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sdapi-checkpointer-')), 'db.sqlite');
    const handle = openDatabase({ engine: 'sqlite', path });
    try {
      await sql`create table filler (x text)`.execute(handle.db);
      const before = statSync(path).size;
      // About 500 pages in one commit: well below the writer's own checkpoint size.
      await handle.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 1000; i++)
          await sql`insert into filler values (hex(randomblob(1000)))`.execute(trx);
      });
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(1_000_000);
      for (let waited = 0; statSync(path).size < before + 1_000_000 && waited < 3000; waited += 50)
        await sleep(50);
      expect(statSync(path).size).toBeGreaterThan(before + 1_000_000);
    } finally {
      await handle.close();
    }
  });
});
