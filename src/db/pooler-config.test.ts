import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';

const postgres = 'postgres://app@pgbouncer:6432/sdapi';

describe('DATABASE_POOLER and DATABASE_DIRECT_URL', () => {
  it('default to no pooler, the session address being DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: postgres }).database).toEqual({ engine: 'postgres', url: postgres });
  });

  it('carry the pooler and the direct address for PostgreSQL', () => {
    const direct = 'postgres://app@db:5432/sdapi';
    const config = loadConfig({
      DATABASE_URL: postgres,
      DATABASE_POOLER: 'transaction',
      DATABASE_DIRECT_URL: direct,
    });
    expect(config.database).toEqual({
      engine: 'postgres',
      url: postgres,
      pooling: { pooler: 'transaction', directUrl: direct },
    });
  });

  it('refuse a transaction pooler without the direct address its sessions need', () => {
    expect(() => loadConfig({ DATABASE_URL: postgres, DATABASE_POOLER: 'transaction' })).toThrow(
      /DATABASE_POOLER=transaction needs DATABASE_DIRECT_URL/,
    );
  });

  it('refuse DATABASE_SCHEMA behind a transaction pooler, naming the way out', () => {
    expect(() =>
      loadConfig({ DATABASE_URL: postgres, DATABASE_POOLER: 'transaction', DATABASE_SCHEMA: 'shop' }),
    ).toThrow(/DATABASE_SCHEMA cannot be used with DATABASE_POOLER=transaction.*ALTER ROLE/);
  });

  it('refuse a pooler or a direct address on SQLite, and a pooler mode they do not know', () => {
    expect(() => loadConfig({ DATABASE_POOLER: 'transaction' })).toThrow(/PostgreSQL only/);
    expect(() => loadConfig({ DATABASE_URL: 'sqlite:./x.sqlite', DATABASE_DIRECT_URL: postgres })).toThrow(
      /PostgreSQL only/,
    );
    expect(() => loadConfig({ DATABASE_URL: postgres, DATABASE_POOLER: 'session' })).toThrow(
      /DATABASE_POOLER/,
    );
  });
});
