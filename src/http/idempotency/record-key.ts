/** An Idempotency-Key as stored: per company and environment. */
export interface RecordKey {
  companyId: string;
  environment: string;
  key: string;
}

/** One string per record key, for maps of records and of batched claims. */
export const recordKeyId = (k: RecordKey) => `${k.companyId}\u0000${k.environment}\u0000${k.key}`;
