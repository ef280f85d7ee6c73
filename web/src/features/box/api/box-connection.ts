import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type BoxConnection = components['schemas']['BoxConnection'];

const KEY = ['box-connection'];

/** The web's callback page, registered as the Box application's redirect URI. */
export const boxRedirectUri = () => `${window.location.origin}/box/callback`;

/** GET /box/connection (getBoxConnection): administrators only; tokens are never returned. */
export async function getBoxConnection(): Promise<BoxConnection> {
  return unwrap(await api.GET('/box/connection')).data.attributes;
}

export const boxConnectionQueryOptions = () => queryOptions({ queryKey: KEY, queryFn: getBoxConnection });

export function useBoxConnection() {
  return useQuery(boxConnectionQueryOptions());
}

/** POST /box/connection/authorizations (startBoxConnection): Box's authorization page to send the browser to. */
export async function startBoxConnection(): Promise<string> {
  const body = unwrap(
    await api.POST('/box/connection/authorizations', {
      body: { data: { type: 'BoxAuthorization', attributes: { redirectUri: boxRedirectUri() } } },
    }),
  );
  return body.data.attributes.authorizationUrl;
}

/** Starts connecting and leaves for Box's authorization page. */
export function useStartBoxConnection() {
  return useMutation({
    mutationFn: startBoxConnection,
    onSuccess: (url) => window.location.assign(url),
  });
}

/** POST /box/connection (completeBoxConnection): what Box sent back to /box/callback. */
export function useCompleteBoxConnection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (attributes: { code: string; state: string }) =>
      unwrap(await api.POST('/box/connection', { body: { data: { type: 'BoxConnection', attributes } } })).data
        .attributes,
    onSuccess: (connection) => {
      client.setQueryData(KEY, connection);
      void client.invalidateQueries({ queryKey: ['box-uploads'] });
    },
  });
}

/** PUT /box/connection/root-folder (setBoxRootFolder). */
export function useSetBoxRootFolder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (folderId: string) =>
      unwrap(
        await api.PUT('/box/connection/root-folder', {
          body: { data: { type: 'BoxRootFolder', attributes: { folderId } } },
        }),
      ).data.attributes,
    onSuccess: (connection) => client.setQueryData(KEY, connection),
    // A refusal (BOX_AUTH_FAILED) may have changed the connection's status.
    onError: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** DELETE /box/connection (disconnectBox). */
export function useDisconnectBox() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const result = await api.DELETE('/box/connection');
      if (!result.response.ok) unwrap(result);
    },
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: KEY }),
        client.invalidateQueries({ queryKey: ['box-uploads'] }),
        client.removeQueries({ queryKey: ['box-folders'] }),
      ]),
  });
}
