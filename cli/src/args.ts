import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export const GLOBAL_OPTIONS = {
  'api-key': { type: 'string' },
  'base-url': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

export type Values = Record<string, string | boolean | undefined>;

/**
 * Strict parsing (util.parseArgs): an unknown or mistyped option, a missing value or an extra
 * argument is a UsageError carrying the command's help, never a stack trace.
 */
export function parse(argv: string[], options: Options, help: string) {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...GLOBAL_OPTIONS, ...options },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Values, positionals };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    throw new UsageError(message.replace(/\. To specify a positional.*$/, ''), help);
  }
}

/** The value of a string option, or a UsageError naming it when it is required and missing. */
export function required(values: Values, name: string, help: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`, help);
  return value;
}

/** A whole number option within bounds (a UsageError otherwise). */
export function integer(
  values: Values,
  name: string,
  fallback: number,
  min: number,
  max: number,
  help: string,
) {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`, help);
  }
  return n;
}
