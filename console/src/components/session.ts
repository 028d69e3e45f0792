import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { call, type Session, setCsrfToken } from '../api/client';

export const sessionQuery = {
  queryKey: ['session'],
  queryFn: async () => {
    const { data } = await call<{ data: Session }>('GET', '/session');
    setCsrfToken(data.csrfToken);
    return data;
  },
  staleTime: 60_000,
};

export const useSessionQuery = () => useQuery(sessionQuery);

export const SessionContext = createContext<Session | null>(null);

/** The signed-in session; pages under the layout are only rendered once it is known. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside the signed-in layout');
  return session;
}

export const can = (session: Session, capability: string) => session.capabilities.includes(capability);
