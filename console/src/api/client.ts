/** Typed calls to the console API (/console/api): same origin, the session cookie, the CSRF header. */
import type { Issue } from '../components/field-errors';

export interface ApiErrorBody {
  code: string;
  message: string;
  hint?: string;
  requestId?: string;
  details?: {
    issues?: Issue[];
    reason?: string;
    [key: string]: unknown;
  };
}

export class ConsoleError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
  }
}

let csrfToken = '';
export const setCsrfToken = (token: string) => {
  csrfToken = token;
};

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(`/console/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (response.status === 204) return undefined as T;
  const json = await response.json().catch(() => ({ code: 'INTERNAL_ERROR', message: response.statusText }));
  if (!response.ok) throw new ConsoleError(response.status, json as ApiErrorBody);
  return json as T;
}

export type Role = 'owner' | 'developer' | 'finance' | 'viewer';
export type Environment = 'sandbox' | 'production';
