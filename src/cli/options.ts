import type { parseArgs } from 'node:util';

/** Every option of the operator CLI; COMMANDS in main.ts says which command takes which. */
export const OPTIONS = {
  name: { type: 'string' },
  kind: { type: 'string' },
  country: { type: 'string' },
  'production-access': { type: 'boolean' },
  'api-agreement-signed': { type: 'boolean' },
  company: { type: 'string' },
  environment: { type: 'string' },
  scopes: { type: 'string' },
  'allowed-ips': { type: 'string' },
  'expires-at': { type: 'string' },
  json: { type: 'boolean' },
  'allowed-ip': { type: 'string' },
  pool: { type: 'string' },
  file: { type: 'string' },
  format: { type: 'string' },
  data: { type: 'string' },
  sku: { type: 'string' },
  status: { type: 'string' },
  'include-revoked': { type: 'boolean' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  event: { type: 'string' },
  endpoint: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  quantity: { type: 'string' },
  reason: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type Option = keyof typeof OPTIONS;
export type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>['values'];
