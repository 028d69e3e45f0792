import { type Kysely, type Migration, Migrator } from 'kysely';
import { MIGRATIONS } from '../src/db/migrate.js';

/** The project's migrations up to and including `last`, for tests that migrate step by step. */
export const migrationsUpTo = (last: string): Record<string, Migration> =>
  Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name <= last));

/** Migrates `db` up to and including `last`; resolves to the migrator's result. */
// biome-ignore lint/suspicious/noExplicitAny: migrations run before the schema is typed
export const migrateUpTo = (db: Kysely<any>, last: string) =>
  new Migrator({ db, provider: { getMigrations: async () => migrationsUpTo(last) } }).migrateToLatest();
