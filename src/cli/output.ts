import { isApiError } from '../http/errors.js';

export function printResult(value: Record<string, unknown>, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    return;
  }
  const width = Math.max(...Object.keys(value).map((k) => k.length));
  for (const [key, v] of Object.entries(value)) {
    process.stdout.write(
      `${key.padEnd(width)}  ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}\n`,
    );
  }
}

export function printFailure(err: unknown): number {
  if (isApiError(err)) {
    process.stderr.write(`${err.code}: ${err.message}\n`);
    if (Object.keys(err.details).length > 0)
      process.stderr.write(`${JSON.stringify(err.details, null, 2)}\n`);
    return 1;
  }
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  return 2;
}
