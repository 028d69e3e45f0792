import type { Generated } from 'kysely';

export interface IdempotencyRecordsTable {
  company_id: string;
  environment: string;
  idempotency_key: string;
  /** SHA-256 of method, path and body: the same key with another request is a mismatch. */
  request_hash: string;
  /** Null while the first request is in flight. */
  status_code: number | null;
  response_body: string | null;
  /** 1 when response_body is sealed under the master key (it holds plaintext game keys). */
  response_sealed: Generated<number>;
  content_type: string | null;
  /** An in-flight record whose lease passed is abandoned (its process died) and may be retaken. */
  locked_until: number;
  /** The process running the first execution (`process_heartbeats`); null for claims older than 0020. */
  owner: string | null;
  created_at: number;
}

/** One row per server process, written every second while it lives (owner-heartbeat.ts). */
export interface ProcessHeartbeatsTable {
  process_id: string;
  beat_at: number;
}
