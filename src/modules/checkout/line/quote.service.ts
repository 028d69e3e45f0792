import type { AppContext } from '../../../context.js';
import { type ApiError, isApiError } from '../../../http/errors.js';
import { judgeLine } from './judge-line.js';
import { type LineSnapshot, readLine } from './line-snapshot.js';
import type { CheckoutMode, LineInput, Quote, SellerActor } from './quote.js';

/**
 * Quotes one checkout line: read (`readLine`), then judge (`judgeLine`), answering the quote or
 * the first refusal, as a value. Reads only: fulfilment re-checks capacity under its row locks.
 * With `speculate` (a PostgreSQL caller whose write statement proves the catalog version,
 * `Quote.versionToProve`) the steady state reads nothing; a refusal is never answered on a
 * version nobody read, so it is judged again on a snapshot that reads it. `gate`, a caller's
 * own last gate (a reservation's), is judged with the others.
 */
export async function quoteOrRefusal(
  ctx: AppContext,
  actor: SellerActor,
  input: LineInput,
  mode: CheckoutMode,
  options: QuoteOptions = {},
): Promise<Quote | ApiError> {
  const speculate = options.speculate ?? false;
  const judge = (snapshot: LineSnapshot) => {
    const judged = judgeLine(ctx, snapshot, actor, input, mode);
    return isApiError(judged) ? judged : (options.gate?.(judged) ?? judged);
  };
  const judged = judge(await readLine(ctx, actor, input, mode, speculate));
  if (isApiError(judged) && speculate) return judge(await readLine(ctx, actor, input, mode, false));
  return judged;
}

export interface QuoteOptions {
  speculate?: boolean;
  /** A further gate after the line's own: the refusal it returns, or null. */
  gate?: (quote: Quote) => ApiError | null;
}

/** `quoteOrRefusal`, the refusal thrown as the request's answer. */
export async function quoteLine(
  ctx: AppContext,
  actor: SellerActor,
  input: LineInput,
  mode: CheckoutMode,
  options: QuoteOptions = {},
): Promise<Quote> {
  const judged = await quoteOrRefusal(ctx, actor, input, mode, options);
  if (isApiError(judged)) throw judged;
  return judged;
}
