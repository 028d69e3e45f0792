export type ExportStatus = 'pending' | 'ready' | 'failed';

export interface CatalogExportsTable {
  id: string;
  seller_company_id: string;
  environment: string;
  status: ExportStatus;
  locale: string;
  /** gzip of the NDJSON snapshot; kept until expires_at. */
  artifact: Buffer | null;
  /** Lowercase hex SHA-256 of the artifact bytes. */
  checksum: string | null;
  bytes: number | null;
  total_products: number | null;
  error: string | null;
  created_at: number;
  completed_at: number | null;
  expires_at: number | null;
}
