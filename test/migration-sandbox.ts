import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { databaseConfigFrom } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { MIGRATIONS } from '../src/db/migrate.js';
import { randomBase32 } from '../src/lib/ids.js';
import { TEST_DATABASE_URL } from './harness.js';

/** Runs one statement on the test server outside any schema (creating and dropping schemas). */
async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A migration test's own PostgreSQL schema: its name, its database handle, a migrator that moves it to a
 * named migration, the partitions of a table by name, and `drop` to close the handle and remove
 * the schema.
 */
export async function migrationSandbox() {
  const schema = `t_${randomBase32(12)}`;
  await adminQuery(`create schema ${schema}`);
  const handle = openDatabase(databaseConfigFrom(TEST_DATABASE_URL!, '/tmp', schema));
  const db = handle.db;
  return {
    schema,
    db,
    migrateTo: (name: string) =>
      new Migrator({
        db,
        provider: { getMigrations: async () => MIGRATIONS },
        migrationTableSchema: schema,
      }).migrateTo(name),
    partitions: async (table: string) =>
      (
        await sql<{ name: string }>`select c.relname as name from pg_inherits i
          join pg_class c on c.oid = i.inhrelid where i.inhparent = ${table}::regclass`.execute(db)
      ).rows.map((r) => r.name),
    async drop() {
      await handle.close();
      await adminQuery(`drop schema if exists ${schema} cascade`);
    },
  };
}
