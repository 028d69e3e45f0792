export type PoolKind = 'dedicated' | 'shared';
/** `none`: finite; `infinite`: never runs out (sandbox); `pinned`: always shows pinned_available. */
export type ReplenishMode = 'none' | 'infinite' | 'pinned';
export type GameKeyState = 'available' | 'sold' | 'quarantined';

export interface KeyPoolsTable {
  id: string;
  kind: PoolKind;
  sku_id: string;
  allocation_id: string | null;
  environment: string;
  replenish_mode: ReplenishMode;
  pinned_available: number | null;
  created_at: number;
}

export interface GameKeysTable {
  id: string;
  pool_id: string;
  sku_id: string;
  /** AES-256-GCM under SDAPI_MASTER_KEY: base64 of iv | tag | ciphertext. */
  ciphertext: string;
  /** HMAC-SHA256 of the plaintext under a key derived from the master key: dedupe without plaintext. */
  fingerprint: string;
  state: GameKeyState;
  order_id: string | null;
  sold_at: number | null;
  created_at: number;
}

/**
 * Available keys per pool (migration 0024), kept by triggers on game_keys in the statement that
 * imports, claims, returns, quarantines or revokes a key; sharded per writer connection on
 * PostgreSQL (0 on SQLite). A pool's stock is the sum over its shards.
 */
export interface PoolStockTable {
  pool_id: string;
  shard: number;
  available: number;
}
