import type { Generated } from 'kysely';

export type EndpointStatus = 'active' | 'disabled';
/**
 * `pending`: awaiting an attempt (due or a scheduled retry); `held`: its endpoint is disabled
 * (buffered, nothing sent) until enable makes it pending again; `succeeded`, `failed` are final;
 * `superseded`: a resend of the same event to the same endpoint replaced it before it finished.
 */
export type DeliveryStatus = 'pending' | 'held' | 'succeeded' | 'failed' | 'superseded';
/** Who disabled an endpoint: the circuit breaker, or the seller pausing it. */
export type DisabledBy = 'breaker' | 'seller';

export interface WebhookEndpointsTable {
  id: string;
  company_id: string;
  environment: string;
  url: string;
  description: string | null;
  /** JSON array of event types; `["*"]` means every type. */
  event_types: string;
  status: EndpointStatus;
  /** The signing secret (`whsec_...`), sealed with the SecretBox. */
  secret_sealed: string;
  /** The secret replaced by the last rotation, still signing until previous_secret_until. */
  previous_secret_sealed: string | null;
  previous_secret_until: number | null;
  consecutive_failures: number;
  disabled_reason: string | null;
  disabled_at: number | null;
  disabled_by: DisabledBy | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  company_id: string;
  environment: string;
  event_id: string;
  /** published_seq of the event: deliveries of one endpoint go out (and flush) in this order. */
  event_order: number;
  status: DeliveryStatus;
  attempts: number;
  /** Attempts earlier deliveries of the event made to the endpoint: this one's continue from there. */
  attempt_base: number;
  next_attempt_at: number;
  /** Epoch ms until which one worker owns the delivery; 0 when free. */
  lease_until: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookAttemptsTable {
  seq: Generated<number>;
  delivery_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  attempted_at: number;
  next_retry_at: number | null;
  /** The first bytes of the receiver's answer (UTF-8), cleared after the request log's retention. */
  response_body: string | null;
}
