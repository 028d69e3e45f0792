import { createContext, useContext } from 'react';
import type { Answer } from '../data/api';

export type Session = Answer<'/session', 'get'>['data'];

export const SessionContext = createContext<Session | null>(null);

/** The signed-in session; pages under the layout are only rendered once it is known. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside the signed-in layout');
  return session;
}

export const can = (session: Session, capability: string) => session.capabilities.includes(capability);
