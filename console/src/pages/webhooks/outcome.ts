import type { Attempt } from '../../data/webhooks/queries';

/** The pill of an attempt: a 2xx answer is done, anything else (another status, no answer) an error. */
export const outcome = (row: Attempt) =>
  row.statusCode !== null && row.statusCode >= 200 && row.statusCode < 300 ? 'pill-done' : 'pill-error';

/** The error text worth showing beside the status code (not the bare `HTTP 500` it already says). */
export const extraError = (row: Attempt) =>
  row.error && row.error !== `HTTP ${row.statusCode}` ? row.error : null;

export const DELIVERY_PILL = {
  succeeded: 'pill-done',
  failed: 'pill-error',
  pending: 'pill-waiting',
  held: 'pill-todo',
  superseded: 'pill-todo',
} as const;
