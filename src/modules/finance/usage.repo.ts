import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

export interface UsageCount {
  company_id: string;
  environment: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  route_class: string;
  calls: number;
}

/** Adds calls to each (company, environment, day, route class) counter, creating those missing. */
export const addUsage = (ex: Executor, rows: UsageCount[]) =>
  ex
    .insertInto('api_usage_daily')
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['company_id', 'environment', 'day', 'route_class'])
        .doUpdateSet({ calls: sql`api_usage_daily.calls + excluded.calls` }),
    )
    .execute();

/** The scope's call counters of the UTC days from `from` to `to` (YYYY-MM-DD, inclusive). */
export const usageCalls = (
  ex: Executor,
  scope: { sellerId: string; environment: string },
  from: string,
  to: string,
) =>
  ex
    .selectFrom('api_usage_daily')
    .select(['day', 'route_class', 'calls'])
    .where('company_id', '=', scope.sellerId)
    .where('environment', '=', scope.environment)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute();
