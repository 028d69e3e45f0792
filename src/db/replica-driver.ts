import type { CompiledQuery, DatabaseConnection, Driver, QueryResult } from 'kysely';
import type { Db } from './database.js';
import { isTransientStoreError } from './transient-errors.js';

/**
 * A replica connection that answers from the primary when the replica cannot: a query that
 * fails because the replica is unreachable, restarting, or cancelled by recovery (a conflict
 * with replay answers 40001) runs again on the primary, and `failed` hears why. Reads only:
 * a transaction on the replica is refused, since its statements could not move to the primary.
 */
class FallbackConnection implements DatabaseConnection {
  constructor(
    readonly replica: DatabaseConnection | null,
    private readonly primary: Db,
    private readonly failed: (err: unknown) => void,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.replica) {
      try {
        return await this.replica.executeQuery<R>(query);
      } catch (err) {
        if (!isTransientStoreError(err)) throw err;
        this.failed(err);
      }
    }
    return this.primary.executeQuery<R>(query);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (!this.replica) throw new Error('the replica is unavailable: stream from the primary');
    return this.replica.streamQuery<R>(query, chunkSize);
  }
}

export class FallbackDriver implements Driver {
  constructor(
    private readonly replica: Driver,
    private readonly primary: Db,
    private readonly failed: (err: unknown) => void,
  ) {}

  init(): Promise<void> {
    return this.replica.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    try {
      return new FallbackConnection(await this.replica.acquireConnection(), this.primary, this.failed);
    } catch (err) {
      if (!isTransientStoreError(err)) throw err;
      this.failed(err);
      return new FallbackConnection(null, this.primary, this.failed);
    }
  }

  async beginTransaction(): Promise<void> {
    throw new Error('reads on the replica run outside transactions');
  }

  async commitTransaction(): Promise<void> {}

  async rollbackTransaction(): Promise<void> {}

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const { replica } = connection as FallbackConnection;
    if (replica) await this.replica.releaseConnection(replica);
  }

  destroy(): Promise<void> {
    return this.replica.destroy();
  }
}
