import { ApiError } from '@sdapi/sdk';
import { colours, type Terminal } from './terminal.js';

/** A mistake on the command line: one line, then the command's help; exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    readonly help: string,
  ) {
    super(message);
  }
}

/** A refusal of the CLI itself (no key, a production key for trigger...): one line and a hint; exit 1. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly hint = '',
  ) {
    super(message);
  }
}

/** The service could not be reached at all. */
export class UnreachableError extends CliError {
  constructor(baseUrl: string, cause: unknown) {
    const why = cause instanceof Error && cause.cause instanceof Error ? ` (${cause.cause.message})` : '';
    super(
      `no service answers at ${baseUrl}${why}`,
      'start it (npm start) or pass --base-url / SDAPI_BASE_URL with its address',
    );
  }
}

/** True for fetch's own failures (refused, reset, DNS), not for answers. */
export const isNetworkError = (error: unknown): boolean =>
  error instanceof TypeError && /fetch failed|network/i.test(error.message);

/** Prints any failure for people or as JSON on stderr and answers the exit code. Never a stack trace. */
export function report(t: Terminal, error: unknown): number {
  const paint = colours(t.err, t.env);
  if (error instanceof UsageError) {
    t.err.write(`${paint('red', `error: ${error.message}`)}\n\n${error.help}\n`);
    return 2;
  }
  if (error instanceof ApiError) {
    const body = {
      code: error.code,
      message: error.message.replace(`${error.code}: `, ''),
      hint: error.hint,
    };
    const requestId = error.requestId;
    if (t.json) t.err.write(`${JSON.stringify({ error: { status: error.status, ...body, requestId } })}\n`);
    else {
      t.err.write(`${paint('red', `error ${error.status} ${body.code}`)}: ${body.message}\n`);
      if (body.hint) t.err.write(`  hint: ${body.hint}\n`);
      t.err.write(`  requestId: ${requestId || '(none)'}\n`);
    }
    return 1;
  }
  const cli =
    error instanceof CliError ? error : new CliError(error instanceof Error ? error.message : String(error));
  if (t.json) t.err.write(`${JSON.stringify({ error: { message: cli.message, hint: cli.hint } })}\n`);
  else {
    t.err.write(`${paint('red', 'error')}: ${cli.message}\n`);
    if (cli.hint) t.err.write(`  hint: ${cli.hint}\n`);
  }
  return 1;
}
