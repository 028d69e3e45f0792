import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../components/session';
import { type Answer, request } from '../api';
import { consoleKeys } from '../keys';

export type Usage = Answer<'/usage', 'get'>;

/** API calls per route class per day, the sandbox limits, the busiest keys. */
export function useUsage() {
  const { environment } = useSession();
  return useQuery({
    queryKey: consoleKeys.usage.summary(environment),
    queryFn: () => request('get', '/usage'),
  });
}
