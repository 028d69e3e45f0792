import { type Kysely, sql } from 'kysely';

/**
 * Reports built together (finance/report-builds.ts):
 *
 * - `finance_reports.artifact_of`: the report whose row holds the gzip this report was built
 *   with; the report's own id when it holds its own, another's when it was built in the same pass,
 *   null while no build has taken it (and on reports built before this migration, which hold
 *   their own).
 * - `finance_reports_pending` (partial): a seller's pending reports, oldest first, where the next
 *   build looks for those no build has taken yet (pending rows are few: each settles or fails).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('finance_reports').addColumn('artifact_of', 'text').execute();
  await db.schema
    .createIndex('finance_reports_pending')
    .on('finance_reports')
    .columns(['seller_company_id', 'environment', 'created_at'])
    .where(sql<boolean>`status = 'pending'`)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('finance_reports_pending').execute();
  await db.schema.alterTable('finance_reports').dropColumn('artifact_of').execute();
}
