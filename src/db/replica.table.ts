/** Per company, the primary's WAL position (bytes) after its latest write (db/replica.ts). */
export interface ReplicaWriteMarksTable {
  company_id: string;
  lsn: number;
}
