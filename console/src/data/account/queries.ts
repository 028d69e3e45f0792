import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ConsoleError } from '../../api/client';
import { type Body, request } from '../api';
import { consoleKeys } from '../keys';

/** A code from the authenticator app or a recovery code: what a second-factor action asks for. */
export type SecondFactorProof = Body<'/totp/disable', 'post'>;

/**
 * When the answer is 401 the session is over (a third wrong code ends it): the cache is
 * forgotten and `onSessionEnded` gets the service's sentence.
 */
function useEndedSession(onSessionEnded: (message: string) => void) {
  const queryClient = useQueryClient();
  return (error: Error) => {
    if (error instanceof ConsoleError && error.status === 401) {
      queryClient.clear();
      onSessionEnded(error.body.message);
    }
  };
}

/** Changes the user's password (the current one proves it is them). */
export function useChangePassword(onDone: () => void, onSessionEnded: (message: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'/password', 'post'>) => request('post', '/password', { body }),
    onSuccess: async () => {
      onDone();
      await queryClient.invalidateQueries({ queryKey: consoleKeys.session.all });
    },
    onError: useEndedSession(onSessionEnded),
  });
}

/** How many recovery codes the user has left. */
export const useRecoveryCodesLeft = () =>
  useQuery({
    queryKey: consoleKeys.account.recoveryCodes,
    queryFn: async () => (await request('get', '/totp/recovery-codes')).data,
  });

/** A new set of recovery codes (the old ones stop working); shown once. */
export function useRegenerateRecoveryCodes(onDone: () => void, onSessionEnded: (message: string) => void) {
  return useMutation({
    mutationFn: async (body: SecondFactorProof) =>
      (await request('post', '/totp/recovery-codes', { body })).data,
    onSuccess: onDone,
    onError: useEndedSession(onSessionEnded),
  });
}

/** Turns the user's second factor off. */
export function useDisableTotp(onSessionEnded: (message: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SecondFactorProof) => request('post', '/totp/disable', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: consoleKeys.session.all }),
    onError: useEndedSession(onSessionEnded),
  });
}

/** Starts enrolment: a new secret and its otpauth URI, not in force until confirmed. */
export const useStartTotp = () =>
  useMutation({ mutationFn: async () => (await request('post', '/totp/start')).data });

/** Confirms enrolment with a code from the app; answers the recovery codes, shown once. */
export const useConfirmTotp = () =>
  useMutation({
    mutationFn: async (code: string) => (await request('post', '/totp/confirm', { body: { code } })).data,
  });

/** After the recovery codes are put away: the session now says the second factor is on. */
export function useRefreshSession() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: consoleKeys.session.all });
}

/** After new recovery codes are put away: the count left is read again. */
export function useRefreshRecoveryCodes() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: consoleKeys.account.recoveryCodes });
}
