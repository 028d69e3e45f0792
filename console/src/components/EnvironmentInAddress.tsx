import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import type { Environment } from '../api/client';
import { useFollowLinkEnvironment, useSessionQuery } from '../data/session/queries';
import { useSession } from './session';

/** The address parameter that names the environment a page shows: `?env=sandbox`. */
export const ENV_PARAM = 'env';

const environmentOf = (value: string | null): Environment | null =>
  value === 'sandbox' || value === 'production' ? value : null;

/** `path` with the environment in its address, so a copied or shared link opens the same data. */
export function inEnvironment(path: string, environment: Environment): string {
  const [base, hash = ''] = path.split('#');
  const url = new URL(base ?? '', 'http://console');
  url.searchParams.set(ENV_PARAM, environment);
  return `${url.pathname}${url.search}${hash ? `#${hash}` : ''}`;
}

/**
 * Keeps the address and the session's environment the same. An address naming another
 * environment (a link someone shared) switches the session to it before the page loads; an
 * address without one, or one left behind by the environment switch, is rewritten in place to
 * name the session's.
 */
export function EnvironmentInAddress({ children }: { children: ReactNode }) {
  const { data: session } = useSessionQuery();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const follow = useFollowLinkEnvironment();
  const asked = environmentOf(params.get(ENV_PARAM));
  // The environment address and session last agreed on: tells a new link from a switch.
  const agreed = useRef<Environment | null>(null);
  const [switching, setSwitching] = useState(false);
  const current = session?.environment;
  const follows = asked === null || asked === agreed.current;

  useEffect(() => {
    if (!current) return;
    if (asked === current) {
      agreed.current = current;
      return;
    }
    if (follows) {
      agreed.current = current;
      const search = new URLSearchParams(location.search);
      search.set(ENV_PARAM, current);
      navigate({ pathname: location.pathname, search: `?${search}`, hash: location.hash }, { replace: true });
      return;
    }
    setSwitching(true);
    follow(asked)
      .then((environment) => {
        agreed.current = environment;
      })
      // Refused (signed out, say): the address gives way to the session's environment.
      .catch(() => {
        agreed.current = asked;
      })
      .finally(() => setSwitching(false));
  }, [asked, current, follows, location.pathname, location.search, location.hash, navigate, follow]);

  if (current && asked && asked !== current && !follows)
    return (
      <div className="loading-screen" aria-busy="true">
        {switching ? `Opening ${asked}…` : 'Loading the console…'}
      </div>
    );
  return children;
}

/** `inEnvironment` for the signed-in session's environment: links inside the console carry it. */
export function useEnvironmentLink(): (path: string) => string {
  const { environment } = useSession();
  return (path) => inEnvironment(path, environment);
}
