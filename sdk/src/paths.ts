import type { paths } from './schema.js';

type IdempotencyHeader = 'Idempotency-Key' | 'idempotency-key';
type Optionalize<T, K extends PropertyKey> = Omit<T, K> & Partial<Pick<T, Extract<keyof T, K>>>;
type RelaxHeader<Params> = Params extends { header: infer H }
  ? Record<string, never> extends Optionalize<H, IdempotencyHeader>
    ? Omit<Params, 'header'> & { header?: Optionalize<H, IdempotencyHeader> }
    : Omit<Params, 'header'> & { header: Optionalize<H, IdempotencyHeader> }
  : Params;
type RelaxOperation<O> = O extends { parameters: infer P }
  ? Omit<O, 'parameters'> & { parameters: RelaxHeader<P> }
  : O;

/**
 * The document's paths as the SDK offers them: `Idempotency-Key` is never required of the caller,
 * because the client sends one on every mutation (a caller may still pass its own).
 */
export type Relaxed<Paths> = { [P in keyof Paths]: { [M in keyof Paths[P]]: RelaxOperation<Paths[P][M]> } };
export type SdkPaths = Relaxed<paths>;
