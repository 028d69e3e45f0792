import { fail } from './errors.js';

export const API_MAJOR_VERSION = '1';
export const SUPPORTED_CONTRACT_DATES = ['2026-04-29', '2026-09-01'] as const;
export type ContractDate = (typeof SUPPORTED_CONTRACT_DATES)[number];

const NEWEST_DEFAULT_FROM_MS = Date.parse('2026-09-01T00:00:00Z');

/** The date stamped on unpinned requests: `2026-09-01` from 2026-09-01T00:00Z on the service clock. */
export const defaultContractDate = (nowMs: number): ContractDate =>
  nowMs >= NEWEST_DEFAULT_FROM_MS ? '2026-09-01' : '2026-04-29';

export const isContractDate = (value: string): value is ContractDate =>
  (SUPPORTED_CONTRACT_DATES as readonly string[]).includes(value);

/** The pinned date, or the default when the header is absent; an unsupported pin is refused. */
export function resolveContractDate(pinned: string | undefined, nowMs: number): ContractDate {
  if (pinned === undefined || pinned === '') return defaultContractDate(nowMs);
  const value = pinned.trim();
  if (isContractDate(value)) return value;
  throw fail('UNSUPPORTED_API_VERSION', `X-Service-Api-Version '${value.slice(0, 40)}' is not supported.`, {
    supportedVersions: [...SUPPORTED_CONTRACT_DATES],
  });
}
