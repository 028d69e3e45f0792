import type { AppContext } from '../../../context.js';
import { isApiError } from '../../../http/errors.js';
import { judgeLine } from './judge-line.js';
import { readLine } from './line-snapshot.js';
import type { CheckoutMode, LineInput, Quote, SellerActor } from './quote.js';

/**
 * Quotes one checkout line: read (`readLine`), then judge (`judgeLine`); a refusal is thrown
 * as the request's answer. Reads only: fulfilment re-checks capacity under its row locks. With
 * `speculate` (a PostgreSQL caller whose write statement proves the catalog version,
 * `Quote.versionToProve`) the steady state reads nothing; a refusal is never answered on a
 * version nobody read, so it is judged again on a snapshot that reads it.
 */
export async function quoteLine(
  ctx: AppContext,
  actor: SellerActor,
  input: LineInput,
  mode: CheckoutMode,
  options: { speculate?: boolean } = {},
): Promise<Quote> {
  const speculate = options.speculate ?? false;
  let judged = judgeLine(ctx, await readLine(ctx, actor, input, mode, speculate), actor, input, mode);
  if (isApiError(judged) && speculate) {
    judged = judgeLine(ctx, await readLine(ctx, actor, input, mode, false), actor, input, mode);
  }
  if (isApiError(judged)) throw judged;
  return judged;
}
