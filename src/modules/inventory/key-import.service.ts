import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Insertable } from 'kysely';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import type { SecretBox } from '../../lib/secret-box.js';
import * as repo from './inventory.repo.js';
import type { GameKeysTable } from './inventory.table.js';
import { dropRepeats, KeySealer, type SealedKeys, sealAll } from './key-sealer.js';
import { requirePool } from './pools.service.js';

export type ImportFormat = 'lines' | 'csv';

export interface RejectedLine {
  line: number;
  reason: string;
}

export interface ImportSummary {
  poolId: string;
  linesRead: number;
  imported: number;
  duplicates: number;
  rejected: number;
  /** The first rejected lines, with their numbers (at most 100 are listed). */
  rejectedLines: RejectedLine[];
}

/** Rows per INSERT statement, and statements per transaction: large transactions write each
 * touched index page once instead of once per statement (measured 4x faster on SQLite). */
const ROWS_PER_STATEMENT = 1000;
const ROWS_PER_TRANSACTION = 20_000;
const MAX_LISTED_REJECTIONS = 100;
const VALID_KEY = /^[\x21-\x7e](?:[\x20-\x7e]{0,254}[\x21-\x7e])?$/;

/** One CSV record's cells (RFC 4180 quoting, on a single line). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted && ch === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (ch === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else {
      cell += ch;
    }
  }
  cells.push(cell);
  return cells;
}

class KeyExtractor {
  private column = 0;
  private sawFirst = false;

  constructor(private readonly format: ImportFormat) {}

  /** The key on this line, null to skip the line (blank or CSV header), or an error reason. */
  extract(raw: string): { key: string } | { skip: true } | { reason: string } {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return { skip: true };
    let value = line;
    if (this.format === 'csv') {
      const cells = csvCells(line);
      if (!this.sawFirst) {
        this.sawFirst = true;
        const header = cells.map((c) => c.trim().toLowerCase());
        const index = header.findIndex((c) => c === 'key' || c === 'code' || c === 'game_key');
        if (index >= 0) {
          this.column = index;
          return { skip: true };
        }
      }
      value = cells[this.column] ?? '';
    }
    const key = value.trim();
    if (key === '') return { reason: 'empty key' };
    if (!VALID_KEY.test(key)) return { reason: 'key must be 1-256 printable ASCII characters' };
    return { key };
  }
}

/**
 * Stores a sealed batch in one transaction, statement by statement; returns how many were new.
 * Rows are built per statement, so that they die young instead of filling the old heap.
 */
function storeBatch(
  ctx: AppContext,
  sealed: SealedKeys,
  row: (ciphertext: string, fingerprint: string) => Insertable<GameKeysTable>,
): Promise<number> {
  const { ciphertexts, fingerprints } = sealed;
  return ctx.db.transaction().execute(async (trx) => {
    let stored = 0;
    for (let start = 0; start < ciphertexts.length; start += ROWS_PER_STATEMENT) {
      const rows: Insertable<GameKeysTable>[] = [];
      for (let i = start; i < Math.min(start + ROWS_PER_STATEMENT, ciphertexts.length); i++)
        rows.push(row(ciphertexts[i]!, fingerprints[i]!));
      stored += await repo.insertKeys(trx, rows);
    }
    return stored;
  });
}

/**
 * Streams keys into a pool: each line is read once, encrypted under the master key, and stored
 * in transactions of 20,000, skipping keys already stored (by fingerprint) and reporting each
 * bad line with its number. From the second batch on, a worker thread seals the next batch while
 * this one is stored. Memory stays flat whatever the file size; a failure mid-file leaves earlier
 * batches stored and answers INTERNAL_ERROR whose details.summary says exactly what was stored.
 */
export async function importKeys(
  ctx: AppContext,
  poolId: string,
  input: Readable,
  options: { format?: ImportFormat; onProgress?: (summary: ImportSummary) => void } = {},
): Promise<ImportSummary> {
  const secrets: SecretBox | undefined = ctx.secrets;
  const masterKeyHex = ctx.config.masterKeyHex;
  if (!secrets || !masterKeyHex)
    throw fail('SERVICE_UNAVAILABLE', 'SDAPI_MASTER_KEY is not configured; keys cannot be stored.');
  const pool = await requirePool(ctx.db, poolId);
  // The line reader is attached only now, after every await that precedes reading: lines a
  // reader emitted before its consumer started would be lost.
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  const extractor = new KeyExtractor(options.format ?? 'lines');
  const summary: ImportSummary = {
    poolId,
    linesRead: 0,
    imported: 0,
    duplicates: 0,
    rejected: 0,
    rejectedLines: [],
  };
  const now = ctx.clock.now();
  let batch: string[] = [];
  let sealer: KeySealer | undefined;
  let sealing: Promise<{ keys: number; sealed: SealedKeys }> | undefined;

  const row = (ciphertext: string, fingerprint: string): Insertable<GameKeysTable> => ({
    id: uuidv7(now),
    pool_id: pool.id,
    sku_id: pool.sku_id,
    ciphertext,
    fingerprint,
    state: 'available',
    order_id: null,
    sold_at: null,
    created_at: now,
  });
  const store = async ({ keys, sealed }: { keys: number; sealed: SealedKeys }) => {
    const stored = await storeBatch(ctx, sealed, row);
    summary.imported += stored;
    summary.duplicates += keys - stored;
    options.onProgress?.(summary);
  };

  /** Stores the batch handed to sealing last, if any. */
  const storeInFlight = async () => {
    const inFlight = sealing;
    sealing = undefined;
    if (inFlight) await store(await inFlight);
  };
  /** Hands the batch read so far to sealing, then stores the one before it meanwhile. */
  const dispatch = async ({ last }: { last: boolean }) => {
    const keys = batch;
    const count = keys.length;
    batch = [];
    // Small imports (and a file's only batch) are sealed here: a worker is worth starting only
    // when a second batch will follow.
    if (!last) sealer ??= new KeySealer(masterKeyHex);
    const next = (sealer ? sealer.seal(keys) : Promise.resolve(sealAll(secrets, keys))).then((sealed) => ({
      keys: count,
      sealed: dropRepeats(sealed),
    }));
    next.catch(() => undefined); // awaited by the next store; a failure meanwhile is not unhandled
    await storeInFlight();
    sealing = next;
  };

  try {
    try {
      for await (const raw of lines) {
        summary.linesRead += 1;
        const result = extractor.extract(raw);
        if ('skip' in result) continue;
        if ('reason' in result) {
          summary.rejected += 1;
          if (summary.rejectedLines.length < MAX_LISTED_REJECTIONS)
            summary.rejectedLines.push({ line: summary.linesRead, reason: result.reason });
          continue;
        }
        batch.push(result.key);
        if (batch.length >= ROWS_PER_TRANSACTION) await dispatch({ last: false });
      }
    } finally {
      // A whole batch read before a failure is stored all the same, so the summary counts every
      // batch completed; the partial batch after it is not.
      await storeInFlight();
    }
    if (batch.length > 0) await dispatch({ last: true });
    await storeInFlight();
  } catch {
    // The cause (a database, stream or worker failure) is not for clients; the summary is.
    throw fail(
      'INTERNAL_ERROR',
      `The import stopped after line ${summary.linesRead}; details.summary counts what was stored.`,
      { summary },
    );
  } finally {
    await sealer?.close();
  }
  return summary;
}
