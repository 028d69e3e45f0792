import { useInfiniteQuery } from '@tanstack/react-query';
import { call } from '../api/client';

/** A console list read page by page with `meta.nextCursor`: the rows so far and DataTable's "more". */
export function useKeysetList<Row>(
  key: string,
  environment: string,
  path: string,
  query: URLSearchParams,
  moreLabel: string,
) {
  const list = useInfiniteQuery({
    queryKey: [key, environment, query.toString()],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const page = new URLSearchParams(query);
      if (pageParam) page.set('cursor', pageParam);
      return call<{ data: Row[]; meta: { nextCursor: string | null } }>('GET', `${path}?${page}`);
    },
    getNextPageParam: (last) => last.meta.nextCursor,
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
