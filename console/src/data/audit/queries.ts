import { useSession } from '../../components/session';
import { consoleKeys } from '../keys';
import { type RowOf, useKeysetList } from '../keyset';

export type AuditRow = RowOf<'/audit'>;

/** The company's audit log, newest first, narrowed by `filters` (actor, action, from, to). */
export function useAuditLog(filters: URLSearchParams) {
  const { environment } = useSession();
  return useKeysetList(consoleKeys.audit.list(environment, filters.toString()), '/audit', {
    moreLabel: 'Older entries',
    query: filters,
  });
}
