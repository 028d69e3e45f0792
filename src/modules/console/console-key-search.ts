import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import type { SellerActor } from '../checkout/index.js';
import { soldKeysByFingerprint } from './console-orders.repo.js';

/**
 * The forms of a code a buyer sends that may be the stored key: as typed (trimmed), then in
 * capitals, since key formats are usually upper case and people retype them in lower case. Keys
 * are stored case-preserving, so the typed form is tried first.
 */
function candidatesOf(code: string): string[] {
  const typed = code.trim();
  const upper = typed.toUpperCase();
  return upper === typed ? [typed] : [typed, upper];
}

/**
 * The order of the caller's company that holds a key, found by the key's keyed fingerprint (the
 * same HMAC under a master-key-derived key that import writes for every stored key), so the code
 * is never stored, compared in the clear or written anywhere. Unknown codes and keys of other
 * companies answer the same NOT_FOUND; a key sold in the company's other environment says so.
 */
export async function orderOfKeyCode(ctx: AppContext, actor: SellerActor, code: string) {
  if (!ctx.secrets)
    throw fail('SERVICE_UNAVAILABLE', 'SDAPI_MASTER_KEY is not configured; keys cannot be read.');
  const fingerprints = candidatesOf(code).map((text) => ctx.secrets!.fingerprint(text));
  const rows = await soldKeysByFingerprint(ctx.db, actor.sellerId, fingerprints);
  const ranked = fingerprints.flatMap((f) => rows.filter((row) => row.fingerprint === f));
  const here = ranked.find((row) => row.environment === actor.environment);
  if (here)
    return {
      orderId: here.id,
      readableId: here.readable_id,
      orderReference: here.order_reference,
      keyId: here.keyId,
    };
  // Only this company's keys reached here: naming its order in the other environment leaks nothing.
  const elsewhere = ranked[0];
  throw elsewhere
    ? fail(
        'NOT_FOUND',
        `No order of this environment holds that key; one in ${elsewhere.environment} does.`,
        {
          otherEnvironment: elsewhere.environment,
          readableId: elsewhere.readable_id,
        },
      )
    : fail('NOT_FOUND', 'No order of your company holds that key.');
}
