import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../components/session';
import { type Answer, type Body, request } from '../api';
import { consoleKeys } from '../keys';

export type CompanySettings = Answer<'/company', 'get'>['data'];
export type Footprint = CompanySettings['footprint'];
export type FootprintChecks = CompanySettings['footprintChecks'];
export type NoticePage = Answer<'/notices', 'get'>;
export type NoticeRow = NoticePage['data'][number];

/** The company profile, its standing, its footprint. */
export const useCompanySettings = () =>
  useQuery({
    queryKey: consoleKeys.settings.company,
    queryFn: async () => (await request('get', '/company')).data,
  });

/** Replaces both footprint sets; answers the footprint as saved. */
export function useSaveFootprint(onSaved: (footprint: Footprint) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: Body<'/footprint', 'put'>) =>
      (await request('put', '/footprint', { body })).data,
    onSuccess: (footprint) => {
      onSaved(footprint);
      return queryClient.invalidateQueries({ queryKey: consoleKeys.settings.all });
    },
  });
}

/** The environment's notices, newest first, page by page. */
export function useNotices(unreadOnly: boolean) {
  const { environment } = useSession();
  return useInfiniteQuery({
    queryKey: consoleKeys.notices.list(environment, unreadOnly),
    initialPageParam: null as NoticePage['meta']['nextBefore'],
    queryFn: ({ pageParam }) =>
      request('get', '/notices', {
        query: { unreadOnly, beforeAt: pageParam?.at, beforeId: pageParam?.id },
      }),
    getNextPageParam: (last) => last.meta.nextBefore,
  });
}

/** Marks one notice read or unread. */
export function useMarkNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, read }: { id: string; read: boolean }) =>
      request('put', '/notices/{id}/read', { params: { id }, body: { read } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: consoleKeys.notices.all }),
  });
}

/** Marks every notice of the environment read. */
export function useMarkAllNotices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request('post', '/notices/read-all'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: consoleKeys.notices.all }),
  });
}
