/** An Idempotency-Key as stored: per company and environment. */
export interface RecordKey {
  companyId: string;
  environment: string;
  key: string;
}

/** A key claimed for a first execution: by which process (`owner`) and until when. */
export interface Claim extends RecordKey {
  owner: string;
  lockedUntil: number;
}

/** One string per record key, for maps of records and of batched claims. */
export const recordKeyId = (k: RecordKey) => `${k.companyId}\u0000${k.environment}\u0000${k.key}`;
