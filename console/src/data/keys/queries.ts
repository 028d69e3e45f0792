import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../components/session';
import { type Answer, type Body, request } from '../api';
import { consoleKeys } from '../keys';

export type ApiKeyList = Answer<'/keys', 'get'>;
export type ApiKey = ApiKeyList['data'][number];
/** A key's secret, answered once (creating, rotating or rolling). */
export type SecretOnce = Answer<'/keys/{id}/rotate', 'post'>['data'];
export type KeyAction =
  | { kind: 'rotate' | 'roll' | 'revoke'; key: ApiKey }
  | { kind: 'allowlist'; key: ApiKey; allowedIps: string[] };

/** The session environment's keys, with the scopes the user's role may grant. */
export function useApiKeys() {
  const { environment } = useSession();
  return useQuery({ queryKey: consoleKeys.keys.list(environment), queryFn: () => request('get', '/keys') });
}

/** Creates a key; answers its secret (shown once). */
export function useCreateKey(onCreated: (secret: SecretOnce) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: Body<'/keys', 'post'>) => (await request('post', '/keys', { body })).data,
    onSuccess: async (secret) => {
      onCreated(secret);
      await queryClient.invalidateQueries({ queryKey: consoleKeys.keys.all });
    },
  });
}

/** Rotates, rolls, revokes a key or replaces its allowlist; a new secret is handed to `onDone`. */
export function useKeyAction(onDone: (secret: SecretOnce | undefined) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: KeyAction): Promise<SecretOnce | undefined> => {
      const params = { id: action.key.id };
      if (action.kind === 'revoke') return request('delete', '/keys/{id}', { params });
      if (action.kind === 'allowlist') {
        const body = { allowedIps: action.allowedIps };
        return request('put', '/keys/{id}/allowed-ips', { params, body });
      }
      if (action.kind === 'rotate') return (await request('post', '/keys/{id}/rotate', { params })).data;
      return (await request('post', '/keys/{id}/roll', { params })).data;
    },
    onSuccess: async (secret) => {
      onDone(secret);
      await queryClient.invalidateQueries({ queryKey: consoleKeys.keys.all });
    },
  });
}

/** The API's own allowlist validation of `entries`, without saving anything. */
export function useAllowlistCheck(entries: string[]) {
  return useQuery({
    queryKey: consoleKeys.keys.allowlistCheck(entries),
    queryFn: async () => (await request('post', '/keys/allowlist-check', { body: { entries } })).data,
    enabled: entries.length > 0,
  });
}
