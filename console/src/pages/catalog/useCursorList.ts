import { useInfiniteQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { useSession } from '../../components/session';
import type { ListMeta } from './types';

/** A keyset-paged console list (`meta.nextCursor`), in the session's environment. */
export function useCursorList<Row>(name: string, path: string, query: URLSearchParams) {
  const session = useSession();
  const list = useInfiniteQuery({
    queryKey: [name, session.environment, query.toString()],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const page = new URLSearchParams(query);
      if (pageParam) page.set('cursor', pageParam);
      return call<{ data: Row[]; meta: ListMeta }>('GET', `${path}?${page}`);
    },
    getNextPageParam: (last) => last.meta.nextCursor,
  });
  const rows = list.data?.pages.flatMap((page) => page.data) ?? [];
  const more = (label: string) => ({
    label,
    hasMore: list.hasNextPage,
    loading: list.isFetchingNextPage,
    onMore: () => list.fetchNextPage(),
  });
  return { list, rows, more };
}
