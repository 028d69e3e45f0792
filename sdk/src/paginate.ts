import type { FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { PathsWithMethod } from 'openapi-typescript-helpers';
import type { SdkPaths as paths } from './paths.js';

type GetPath = PathsWithMethod<paths, 'get'>;
type Body<P extends GetPath> = NonNullable<
  FetchResponse<paths[P]['get'] & Record<string | number, unknown>, unknown, 'application/json'>['data']
>;
/** The GET operations that answer `{data: [...], meta: {nextCursor}}`. */
export type ListPath = {
  [P in GetPath]: Body<P> extends { data: unknown[]; meta: { nextCursor: string | null } } ? P : never;
}[GetPath];
export type ItemOf<P extends ListPath> = Body<P> extends { data: (infer I)[] } ? I : never;

type Init<P extends ListPath> = MaybeOptionalInit<paths[P], 'get'>;
type InitArgs<I> = Record<string, never> extends I ? [init?: I] : [init: I];
type Get = (path: string, init?: object) => Promise<unknown>;

/**
 * `for await (const item of client.paginate('/api/seller/v1/…', { params: { query } }))`: follows
 * `meta.nextCursor` until a page comes back empty or without one (a feed such as GET /events
 * hands out a cursor on its last page too, so the next, empty page ends the walk).
 */
export const paginate = (get: Get) =>
  async function* <P extends ListPath>(path: P, ...[init]: InitArgs<Init<P>>): AsyncGenerator<ItemOf<P>> {
    const base = (init ?? {}) as { params?: { query?: Record<string, unknown> } };
    let cursor: string | undefined;
    for (;;) {
      const query = { ...base.params?.query, ...(cursor ? { cursor } : {}) };
      const page = (await get(path, { ...base, params: { ...base.params, query } })) as {
        data: ItemOf<P>[];
        meta: { nextCursor: string | null };
      };
      yield* page.data;
      if (page.data.length === 0 || !page.meta.nextCursor) return;
      cursor = page.meta.nextCursor;
    }
  };
