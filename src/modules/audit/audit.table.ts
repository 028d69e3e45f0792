/** One row of a company's audit log: who changed what, through the console, the API, the CLI or the operator. */
export interface ConsoleAuditTable {
  id: string;
  company_id: string;
  at: number;
  /** `user:<email>`, `key:<id>` or `operator`. */
  actor: string;
  source: 'console' | 'api' | 'cli' | 'operator';
  action: string;
  target: string | null;
  /** JSON object with the change's particulars; never a secret. */
  detail: string | null;
}
