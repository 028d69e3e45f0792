import type { Generated } from 'kysely';

/** `committing`: a commit is running (concurrent commits answer RESERVATION_COMMIT_IN_PROGRESS). */
export type ReservationStatus = 'live' | 'committing' | 'consumed' | 'expired' | 'released';

/** A hot-drop reservation (docs/hot-drops.md): keys promised, not claimed. */
export interface ReservationsTable {
  id: string;
  seller_company_id: string;
  environment: string;
  api_key_id: string;
  allocation_id: string;
  sku_code: string;
  quantity: number;
  order_reference: string;
  /** JSON of the reserve body's line (country, prices, declaration), quoted again at commit. */
  line: string;
  /** The slot row its units came from (database store); null with Redis. */
  slot: number | null;
  status: ReservationStatus;
  extended: number;
  expires_at: number;
  created_at: number;
  updated_at: number;
}

/** Per allocation: units carved out of its capacity for reservations (promised capacity). */
export interface ReservationPoolsTable {
  allocation_id: string;
  /** Free units in the admission store plus the units of reservations not yet ended. */
  carved: number;
  /** Capacity left uncarved when the pool was last refilled (for `remainingSlots`). */
  uncarved: number;
  /** Generation of the free units in Redis; moved on by each rebuild from PostgreSQL (redis-slot-store.ts). */
  generation: Generated<number>;
}

export interface ReservationSlotsTable {
  allocation_id: string;
  slot: number;
  free: number;
}
