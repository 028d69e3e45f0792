import { useInfiniteQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { useSession } from './session';

/**
 * A console list of the session's environment read page by page with `meta.nextCursor`: the
 * rows so far and DataTable's "more". Its query key starts with `key` (invalidate by it), then
 * the environment, the path and the filters.
 */
export function useKeysetList<Row>(
  key: string,
  path: string,
  query: URLSearchParams,
  moreLabel: string,
  options: { refetchInterval?: number } = {},
) {
  const { environment } = useSession();
  const list = useInfiniteQuery({
    queryKey: [key, environment, path, query.toString()],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const page = new URLSearchParams(query);
      if (pageParam) page.set('cursor', pageParam);
      return call<{ data: Row[]; meta: { nextCursor: string | null } }>('GET', `${path}?${page}`);
    },
    getNextPageParam: (last) => last.meta.nextCursor,
    refetchInterval: options.refetchInterval,
  });
  return {
    rows: list.data?.pages.flatMap((page) => page.data) ?? [],
    loaded: Boolean(list.data),
    error: list.error,
    more: {
      label: moreLabel,
      hasMore: list.hasNextPage,
      loading: list.isFetchingNextPage,
      onMore: () => list.fetchNextPage(),
    },
  };
}
