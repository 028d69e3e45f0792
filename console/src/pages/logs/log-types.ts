/** One stored API request as GET /console/api/request-logs returns it. */
export interface LogRow {
  requestId: string;
  at: string;
  environment: string;
  keyId: string;
  keyName: string;
  method: string;
  route: string;
  path: string;
  status: number;
  errorCode: string | null;
  error: Record<string, unknown> | null;
  durationMs: number;
  contractDate: string;
}

/** A key with requests in the log, the key filter's choice. */
export interface LogKey {
  id: string;
  name: string;
}

export const statusPill = (status: number) => `pill ${status >= 400 ? 'pill-error' : 'pill-done'}`;
