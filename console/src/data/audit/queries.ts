import { useSession } from '../../components/session';
import { consoleKeys } from '../keys';
import { type RowOf, useKeysetList } from '../keyset';

export type AuditRow = RowOf<'/audit'>;

/** The company's audit log, newest first. */
export function useAuditLog() {
  const { environment } = useSession();
  return useKeysetList(consoleKeys.audit.list(environment), '/audit', { moreLabel: 'Older entries' });
}
