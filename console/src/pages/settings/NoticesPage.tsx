import { useState } from 'react';
import { type Column, DataTable } from '../../components/DataTable';
import { can, useSession } from '../../components/session';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { useMarkAllNotices, useMarkNotice, useNotices } from '../../data/settings/queries';
import { formatDate, formatNumber } from '../../format';
import { type Notice, NoticeText } from './notice-text';
import { SettingsNav } from './SettingsNav';

/** Every in-app notice of the company in this environment, read or unread. */
export function NoticesPage() {
  const session = useSession();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const notices = useNotices(unreadOnly);
  const mark = useMarkNotice();
  const markAll = useMarkAllNotices();
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
