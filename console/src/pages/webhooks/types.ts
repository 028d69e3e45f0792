export interface Endpoint {
  id: string;
  url: string;
  eventTypes: string[];
  description: string | null;
  status: 'active' | 'disabled';
  createdAt: string;
  updatedAt: string;
  disabledReason: string | null;
  disabledAt: string | null;
  /** `seller`: paused; `breaker`: disabled after repeated failures. */
  disabledBy: 'breaker' | 'seller' | null;
}

export interface CatalogEntry {
  type: string;
  example: Record<string, unknown>;
}

export interface Attempt {
  eventId: string;
  eventType: string;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  /** The first 1 KiB of the receiver's answer, kept 14 days. */
  responseBody: string | null;
  durationMs: number;
  attemptedAt: string;
  nextRetryAt: string | null;
}

/** One delivery of an event to one endpoint (a resend adds another), with its attempts. */
export interface EventDelivery {
  deliveryId: string;
  status: 'pending' | 'held' | 'succeeded' | 'failed' | 'superseded';
  createdAt: string;
  nextAttemptAt: string | null;
  attempts: Attempt[];
}

/** An event across the environment's endpoints: its envelope and every delivery of it. */
export interface EventDeliveries {
  eventId: string;
  eventType: string;
  createdAt: string;
  publishedAt: string | null;
  envelope: Record<string, unknown>;
  endpoints: {
    endpointId: string;
    url: string;
    endpointStatus: 'active' | 'disabled';
    deliveries: EventDelivery[];
  }[];
}
