import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../../api/client';
import { type Answer, request } from '../api';
import { consoleKeys } from '../keys';

export type Team = Answer<'/team', 'get'>['data'];
export type TeamUser = Team['users'][number];
export type TeamInvite = Team['invites'][number];
export type TeamChange =
  | { kind: 'role'; user: TeamUser; role: Role }
  | { kind: 'remove'; user: TeamUser }
  | { kind: 'reset'; user: TeamUser };

/** The company's console users and open invites. */
export const useTeam = () =>
  useQuery({ queryKey: consoleKeys.team.members, queryFn: async () => (await request('get', '/team')).data });

/** Whether the company requires a second factor. */
export const useSecurity = () =>
  useQuery({
    queryKey: consoleKeys.team.security,
    queryFn: async () => (await request('get', '/security')).data,
  });

/** Changes a user's role, removes them or resets their second factor. */
export function useTeamChange(onDone: (change: TeamChange) => Promise<'refresh' | 'stop'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: TeamChange) => {
      const params = { id: change.user.id };
      if (change.kind === 'role') {
        return request('put', '/team/users/{id}/role', { params, body: { role: change.role } });
      }
      if (change.kind === 'remove') return request('delete', '/team/users/{id}', { params });
      return request('post', '/team/users/{id}/reset-two-factor', { params });
    },
    onSuccess: async (_, change) => {
      if ((await onDone(change)) === 'refresh') {
        await queryClient.invalidateQueries({ queryKey: consoleKeys.team.members });
      }
    },
  });
}

/** Sets the company's second-factor rule. */
export function useRequireTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (required: boolean) => request('put', '/team/require-totp', { body: { required } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: consoleKeys.team.security }),
  });
}

/** Invites a teammate; answers the link (and whether it was emailed). */
export function useInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { email: string; role: Role }) =>
      (await request('post', '/team/invites', { body })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: consoleKeys.team.members }),
  });
}
