/**
 * The SQL texts PostgreSQL runs as named prepared statements (the hot path's compiled-once
 * queries), and their names. compiled-once.ts registers them; each pooled connection looks a
 * text up here when it runs it (database.ts).
 */
const preparedNames = new Map<string, string>();

/** The name of a compiled-once query's prepared statement on PostgreSQL, if it is one. */
export const preparedNameOf = (sql: string): string | undefined => preparedNames.get(sql);

/** Runs `sql` as a named prepared statement on every connection from now on. */
export function prepareByName(sql: string): void {
  if (!preparedNames.has(sql)) preparedNames.set(sql, `hot_${preparedNames.size + 1}`);
}
