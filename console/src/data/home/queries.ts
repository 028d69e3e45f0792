import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../components/session';
import { type Answer, request } from '../api';
import { consoleKeys } from '../keys';

export type Checklist = Answer<'/home', 'get'>['data'];
export type ChecklistItem = Checklist['items'][number];

/** The integration readiness checklist of the session's environment. */
export function useChecklist() {
  const { environment } = useSession();
  return useQuery({
    queryKey: consoleKeys.home.checklist(environment),
    queryFn: async () => (await request('get', '/home')).data,
  });
}
