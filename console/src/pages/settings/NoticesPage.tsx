import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { can, useSession } from '../../components/session';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { formatDate, formatNumber } from '../../format';
import { type Notice, NoticeText } from './notice-text';
import { SettingsNav } from './SettingsNav';

interface NoticePage {
  data: Notice[];
  meta: { unread: number; nextBefore: { at: number; id: string } | null };
}

/** Every in-app notice of the company in this environment, read or unread. */
export function NoticesPage() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const notices = useInfiniteQuery({
    queryKey: ['notices', session.environment, unreadOnly],
    initialPageParam: null as { at: number; id: string } | null,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ unreadOnly: String(unreadOnly) });
      if (pageParam) {
        query.set('beforeAt', String(pageParam.at));
        query.set('beforeId', pageParam.id);
      }
      return call<NoticePage>('GET', `/notices?${query}`);
    },
    getNextPageParam: (last) => last.meta.nextBefore,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['notices'] });
  const mark = useMutation({
    mutationFn: ({ id, read }: { id: string; read: boolean }) => call('PUT', `/notices/${id}/read`, { read }),
    onSettled: refresh,
  });
  const markAll = useMutation({ mutationFn: () => call('POST', '/notices/read-all'), onSettled: refresh });
  const mayMark = can(session, 'notices:mark');
  const rows = notices.data?.pages.flatMap((page) => page.data) ?? [];
  const unread = notices.data?.pages[0]?.meta.unread ?? 0;
  const columns: Column<Notice>[] = [
    { header: 'When', className: 'nowrap', cell: (row) => formatDate(row.createdAt) },
    {
      header: 'Notice',
      cell: (row) => (
        <>
          {row.readAt ? null : <span className="pill pill-todo">unread</span>} <NoticeText notice={row} />
        </>
      ),
    },
    {
      header: 'Read',
      cell: (row) => (
        <>
          {row.readAt ? <div className="small muted">by {row.readBy?.replace(/^user:/, '')}</div> : null}
          {mayMark ? (
            <button
              type="button"
              className="button ghost small"
              onClick={() => mark.mutate({ id: row.id, read: !row.readAt })}
            >
              {row.readAt ? 'Mark unread' : 'Mark read'}
            </button>
          ) : null}
        </>
      ),
    },
  ];
  return (
    <>
      <PageHeader
        title="Notices"
        description={`${formatNumber(unread)} unread. A notice read by anyone in your company is read for everyone.`}
        actions={
          mayMark && unread > 0 ? (
            <button type="button" className="button secondary" onClick={() => markAll.mutate()}>
              Mark all read
            </button>
          ) : undefined
        }
      />
      <SettingsNav />
      <label className="check-row">
        <input
          type="checkbox"
          checked={unreadOnly}
          onChange={(event) => setUnreadOnly(event.target.checked)}
        />
        Unread only
      </label>
      <ErrorNotice error={notices.error ?? mark.error ?? markAll.error} />
      <DataTable
        caption="Notices"
        stackOnPhones
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        loaded={Boolean(notices.data)}
        empty="No notice."
        more={{
          label: 'Older notices',
          hasMore: notices.hasNextPage,
          loading: notices.isFetchingNextPage,
          onMore: () => notices.fetchNextPage(),
        }}
      />
    </>
  );
}
