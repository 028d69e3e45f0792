import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { type Environment, setCsrfToken } from '../../api/client';
import type { Session } from '../../components/session';
import { type Body, request } from '../api';
import { consoleKeys } from '../keys';

/** The signed-in session (it also arms the CSRF header every later write sends). */
export const useSessionQuery = () =>
  useQuery({
    queryKey: consoleKeys.session.all,
    queryFn: async () => {
      const { data } = await request('get', '/session');
      setCsrfToken(data.csrfToken);
      return data;
    },
    staleTime: 60_000,
  });

/** Switches the session's environment; every cached answer belonged to the other one. */
export function useSwitchEnvironment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (environment: Environment) => request('put', '/environment', { body: { environment } }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

/** Signs in (with the second factor when asked for); every cached answer was someone else's. */
export function useSignIn(onSignedIn: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'/sign-in', 'post'>) => request('post', '/sign-in', { body }),
    onSuccess: async () => {
      await queryClient.invalidateQueries();
      onSignedIn();
    },
  });
}

/** Ends this session (whatever the answer) and forgets every cached answer. */
export function useSignOut(onSignedOut: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request('post', '/sign-out'),
    onSettled: () => {
      queryClient.clear();
      onSignedOut();
    },
  });
}

/** Ends every session of the user, this one included. */
export function useSignOutEverywhere(onSignedOut: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request('post', '/sign-out-everywhere'),
    onSuccess: () => {
      queryClient.clear();
      onSignedOut();
    },
  });
}

/** What an invite link offers (its email and role); a spent or unknown token answers 404. */
export const useInviteLookup = (token: string) =>
  useQuery({
    queryKey: consoleKeys.invite.lookup(token),
    queryFn: async () => (await request('post', '/invites/lookup', { body: { token } })).data,
    enabled: token.length > 0,
    retry: false,
  });

/** Accepts an invite with the new user's password; the answer signs them in. */
export function useAcceptInvite(token: string, onAccepted: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ password }: { password: string }) =>
      request('post', '/invites/accept', { body: { token, password } }),
    onSuccess: async () => {
      // The invite is spent: asking for it again would answer 404.
      queryClient.removeQueries({ queryKey: consoleKeys.invite.all });
      await queryClient.invalidateQueries({ queryKey: consoleKeys.session.all });
      onAccepted();
    },
  });
}

/**
 * Switches the session to the environment a shared link names, keeping every other cached
 * answer out of date (they belonged to the other environment); resolves to the environment now on.
 */
export function useFollowLinkEnvironment() {
  const queryClient = useQueryClient();
  // One function for the component's life: the effect that calls it runs again when it changes.
  return useCallback(
    async (environment: Environment): Promise<Environment> => {
      const { data } = await request('put', '/environment', { body: { environment } });
      queryClient.setQueryData(consoleKeys.session.all, (old: Session | undefined) =>
        old ? { ...old, environment: data.environment } : old,
      );
      await queryClient.invalidateQueries({
        predicate: (q) => q.queryKey[0] !== consoleKeys.session.all[0],
      });
      return data.environment;
    },
    [queryClient],
  );
}
