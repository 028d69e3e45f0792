import { ApiError, createSdapiClient, type SdapiClient } from '@sdapi/sdk';
import type { Values } from './args.js';
import { CliError, isNetworkError, UnreachableError } from './errors.js';

export const DEFAULT_BASE_URL = 'http://localhost:8080';

export type Environment = 'sandbox' | 'production';

/** What every command that calls the API starts from: the key, the address and a client. */
export interface Session {
  apiKey: string;
  baseUrl: string;
  environment: Environment;
  client: SdapiClient;
}

/** The key's environment, from its prefix: `service_sk_sbx_…` or `service_sk_live_…`. */
export function environmentOf(apiKey: string): Environment | null {
  if (apiKey.startsWith('service_sk_sbx_')) return 'sandbox';
  if (apiKey.startsWith('service_sk_live_')) return 'production';
  return null;
}

export function openSession(values: Values, env: NodeJS.ProcessEnv): Session {
  const apiKey = (values['api-key'] as string | undefined) ?? env.SDAPI_API_KEY ?? '';
  if (!apiKey) {
    throw new CliError('no API key', 'pass --api-key or set SDAPI_API_KEY (a service_sk_sbx_… key)');
  }
  const environment = environmentOf(apiKey);
  if (!environment) {
    throw new CliError(
      'that is not a seller API key',
      'seller keys start with service_sk_sbx_ (sandbox) or service_sk_live_ (production)',
    );
  }
  const baseUrl = (
    (values['base-url'] as string | undefined) ??
    env.SDAPI_BASE_URL ??
    DEFAULT_BASE_URL
  ).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+$/.test(baseUrl)) {
    throw new CliError(`--base-url must be http(s)://host[:port] without a path, not ${baseUrl}`);
  }
  return { apiKey, baseUrl, environment, client: createSdapiClient({ baseUrl, apiKey }) };
}

/** The body and request id of one raw SDK call; an error answer becomes ApiError. */
export async function withRequestId<T>(
  baseUrl: string,
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<{ data: T; requestId: string }> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (error) {
    throw isNetworkError(error) ? new UnreachableError(baseUrl, error) : error;
  }
  if (!result.response.ok) throw ApiError.from(result.response, result.error);
  return { data: result.data as T, requestId: result.response.headers.get('x-request-id') ?? '' };
}
