import { isApiError } from '../http/errors.js';
import type { OperatorReply } from './operator-call.js';

export function printResult(value: Record<string, unknown>, json: boolean | undefined): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    return;
  }
  const width = Math.max(...Object.keys(value).map((k) => k.length));
  for (const [key, v] of Object.entries(value)) {
    process.stdout.write(
      `${key.padEnd(width)}  ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}\n`,
    );
  }
}

/** The columns each list shows as a table (`--json` prints every field and the page meta). */
const COLUMNS: Record<string, string[]> = {
  'companies list': ['id', 'name', 'kind', 'country', 'productionAccess', 'createdAt'],
  'pools list': ['id', 'skuCode', 'kind', 'environment', 'availableKeys', 'allocationId'],
  'allocations list': [
    'id',
    'readableId',
    'skuCode',
    'environment',
    'status',
    'quantityLimit',
    'quantityPulled',
  ],
  'keys list': ['id', 'name', 'environment', 'keyHint', 'createdAt', 'lastUsedAt', 'revokedAt'],
  'requests list': ['id', 'sellerCompanyId', 'skuCode', 'requestedQuantity', 'status', 'createdAt'],
  'webhooks deliveries': ['id', 'status', 'eventType', 'eventId', 'endpointUrl', 'attempts', 'nextAttemptAt'],
};

/**
 * A pool's stock as an operator reads it: a replenished (sandbox) pool stores no keys and mints
 * one per pull, so its stored count (0) would read as empty; a pinned one always shows its pin.
 */
const POOL_STOCK: Record<string, (row: Record<string, unknown>) => string> = {
  infinite: () => 'replenished*',
  pinned: (row) => `${String(row.pinnedAvailable)} (pinned)*`,
};
const POOL_FOOTNOTE =
  '* replenished: a sandbox pool that stores no keys and mints a synthetic one on every pull, so it never runs out.\n' +
  '  pinned: a sandbox pool that always reports the same stock, whatever is pulled.\n';

/** Rows as the table shows them (the JSON output keeps the stored fields). */
function displayRows(command: string, rows: Record<string, unknown>[]): Record<string, unknown>[] {
  if (command !== 'pools list') return rows;
  return rows.map((row) => {
    const stock = POOL_STOCK[String(row.replenishMode)];
    return stock ? { ...row, availableKeys: stock(row) } : row;
  });
}

const cell = (value: unknown) =>
  value === null || value === undefined
    ? '-'
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

/** A page of a list as a table, then how to read the next page. */
export function printList(command: string, reply: OperatorReply, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify({ data: reply.data, meta: reply.meta }, null, 2)}\n`);
    return;
  }
  const rows = displayRows(command, reply.data as Record<string, unknown>[]);
  const columns = COLUMNS[command] ?? Object.keys(rows[0] ?? {});
  const table = [columns, ...rows.map((row) => columns.map((c) => cell(row[c])))];
  const widths = columns.map((_, i) => Math.max(...table.map((line) => line[i]?.length ?? 0)));
  for (const line of table) {
    process.stdout.write(
      `${line
        .map((text, i) => text.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd()}\n`,
    );
  }
  if (rows.some((row) => String(row.availableKeys).endsWith('*'))) process.stdout.write(POOL_FOOTNOTE);
  const next = reply.meta?.nextCursor;
  process.stdout.write(
    next ? `(${rows.length} shown; next page: --cursor ${String(next)})\n` : `(${rows.length} in all)\n`,
  );
}

export function printFailure(err: unknown): number {
  if (isApiError(err)) {
    process.stderr.write(`${err.code}: ${err.message}\n`);
    if (Object.keys(err.details).length > 0)
      process.stderr.write(`${JSON.stringify(err.details, null, 2)}\n`);
    return 1;
  }
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  return 2;
}
