import type { Kysely } from 'kysely';

/**
 * The console audit log pages by the keyset (at, id), newest first: rows sharing a timestamp
 * are told apart by their id. The index on (company_id, at) becomes (company_id, at, id), so a
 * page is one index range read in order, with no sort of the rows that share an `at`.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('console_audit_company_at_id')
    .on('console_audit')
    .columns(['company_id', 'at', 'id'])
    .execute();
  await db.schema.dropIndex('console_audit_company').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('console_audit_company')
    .on('console_audit')
    .columns(['company_id', 'at'])
    .execute();
  await db.schema.dropIndex('console_audit_company_at_id').execute();
}
