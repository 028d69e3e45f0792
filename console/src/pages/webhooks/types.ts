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
  durationMs: number;
  attemptedAt: string;
  nextRetryAt: string | null;
}
