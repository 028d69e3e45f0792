import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { type ConsolePath, pathWith } from './api';
import type { paths } from './schema';

type GetOf<P extends ConsolePath> = paths[`/console/api${P}` & keyof paths] extends { get: infer G }
  ? G
  : never;
type GetAnswer<P extends ConsolePath> =
  GetOf<P> extends {
    responses: { 200: { content: { 'application/json': infer B } } };
  }
    ? B
    : never;
type GetParams<P extends ConsolePath> =
  GetOf<P> extends { parameters: { path?: infer Q } } ? NonNullable<Q> : never;

/** The console's GET routes that answer a page of rows and `meta.nextCursor`. */
export type KeysetPath = {
  [P in ConsolePath]: GetAnswer<P> extends { data: unknown[]; meta: { nextCursor: string | null } }
    ? P
    : never;
}[ConsolePath];
/** One row of a keyset route's page. */
export type RowOf<P extends KeysetPath> = GetAnswer<P> extends { data: (infer Row)[] } ? Row : never;
type Page<P extends KeysetPath> = { data: RowOf<P>[]; meta: { nextCursor: string | null } };

/**
 * A console list read page by page with `meta.nextCursor`: the rows so far and DataTable's
 * "more". `queryKey` comes from `consoleKeys` and names everything the rows depend on.
 */
export function useKeysetList<P extends KeysetPath>(
  queryKey: QueryKey,
  path: P,
  options: {
    moreLabel: string;
    params?: GetParams<P>;
    query?: URLSearchParams;
    refetchInterval?: number;
  },
) {
  const list = useInfiniteQuery({
    queryKey,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const page = new URLSearchParams(options.query);
      if (pageParam) page.set('cursor', pageParam);
      return call<Page<P>>('GET', `${pathWith(path, options.params as Record<string, unknown>)}?${page}`);
    },
    getNextPageParam: (last) => last.meta.nextCursor,
    refetchInterval: options.refetchInterval,
  });
  return {
    rows: list.data?.pages.flatMap((page) => page.data) ?? [],
    loaded: Boolean(list.data),
    error: list.error,
    more: {
      label: options.moreLabel,
      hasMore: list.hasNextPage,
      loading: list.isFetchingNextPage,
      onMore: () => list.fetchNextPage(),
    },
  };
}
