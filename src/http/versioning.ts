import { type ApiError, fail } from './errors.js';

export const API_MAJOR_VERSION = '1';
export const SUPPORTED_CONTRACT_DATES = ['2026-04-29', '2026-09-01'] as const;
export type ContractDate = (typeof SUPPORTED_CONTRACT_DATES)[number];

const NEWEST_DEFAULT_FROM_MS = Date.parse('2026-09-01T00:00:00Z');

/** The date stamped on unpinned requests: `2026-09-01` from 2026-09-01T00:00Z on the service clock. */
export const defaultContractDate = (nowMs: number): ContractDate =>
  nowMs >= NEWEST_DEFAULT_FROM_MS ? '2026-09-01' : '2026-04-29';

export const isContractDate = (value: string): value is ContractDate =>
  (SUPPORTED_CONTRACT_DATES as readonly string[]).includes(value);

/**
 * The contract date a request gets: the pinned one, or the default when the header is absent.
 * An unsupported pin yields the default (to stamp on the reply) and the refusal to throw.
 */
export function resolveContractDate(
  pinned: string | undefined,
  nowMs: number,
): { date: ContractDate; refusal: ApiError | null } {
  const value = pinned?.trim() ?? '';
  if (value === '') return { date: defaultContractDate(nowMs), refusal: null };
  if (isContractDate(value)) return { date: value, refusal: null };
  return {
    date: defaultContractDate(nowMs),
    refusal: fail(
      'UNSUPPORTED_API_VERSION',
      `X-Service-Api-Version '${value.slice(0, 40)}' is not supported.`,
      {
        supportedVersions: [...SUPPORTED_CONTRACT_DATES],
      },
    ),
  };
}
