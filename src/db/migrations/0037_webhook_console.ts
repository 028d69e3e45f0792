import { type Kysely, sql } from 'kysely';

/**
 * What the console's Webhooks page needs from the delivery tables:
 *
 * - `webhook_endpoints.disabled_by`: who disabled the endpoint, `breaker` (the circuit breaker)
 *   or `seller` (a pause); null while active. Endpoints disabled before this migration were all
 *   disabled by the breaker.
 * - `webhook_deliveries.attempt_base`: the attempts earlier deliveries of the same event made to
 *   the same endpoint, so a resend's attempts continue the numbering (0 for a first delivery).
 * - `webhook_attempts.response_body`: the first bytes of the receiver's answer, cleared after the
 *   request log's retention; `webhook_attempts_body` (partial) lets that trim read only the rows
 *   that still carry one, oldest first.
 * - `webhook_attempts_endpoint_type`: the delivery log filtered by event type, newest first.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('disabled_by', 'text').execute();
  await sql`update webhook_endpoints set disabled_by = 'breaker' where status = 'disabled'`.execute(db);
  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('attempt_base', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('webhook_attempts').addColumn('response_body', 'text').execute();
  await db.schema
    .createIndex('webhook_attempts_body')
    .on('webhook_attempts')
    .column('seq')
    .where(sql.ref('response_body'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('webhook_attempts_endpoint_type')
    .on('webhook_attempts')
    .columns(['endpoint_id', 'event_type', 'seq'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_attempts_endpoint_type').execute();
  await db.schema.dropIndex('webhook_attempts_body').execute();
  await db.schema.alterTable('webhook_attempts').dropColumn('response_body').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('attempt_base').execute();
  await db.schema.alterTable('webhook_endpoints').dropColumn('disabled_by').execute();
}
