import { randomUUID } from 'node:crypto';
import createClient, { type Client, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, PathsWithMethod } from 'openapi-typescript-helpers';
import { ApiError } from './errors.js';
import { CONTRACT_DATES, type ContractDate } from './generated.js';
import { paginate } from './paginate.js';
import type { SdkPaths as paths } from './paths.js';
import { isRetrySafe, nextDelay, type RetryOptions } from './retry.js';

export interface ClientOptions {
  /** Where the service listens, such as `https://api.example.com` (no path). */
  baseUrl: string;
  /** `service_sk_sbx_…` or `service_sk_live_…`. */
  apiKey: string;
  /**
   * The contract date every request is pinned to (`X-Service-Api-Version`). Defaults to the newest
   * date this SDK was generated against, so an upgrade of the service never changes its answers.
   */
  contractDate?: ContractDate;
  retry?: RetryOptions;
  /** Per-attempt timeout (default 30 s). */
  timeoutMs?: number;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

type Init<P extends keyof paths, M extends HttpMethod> = MaybeOptionalInit<paths[P], M>;
type InitArgs<I> = Record<string, never> extends I ? [init?: I] : [init: I];
/** The success body of an operation (`undefined` for an answer without one, such as 204). */
type Defined<D> = [Exclude<D, undefined>] extends [never] ? undefined : Exclude<D, undefined>;
export type DataOf<P extends keyof paths, M extends HttpMethod, I = Init<P, M>> = Defined<
  FetchResponse<paths[P][M] & Record<string | number, unknown>, I, 'application/json'>['data']
>;

type Method<M extends HttpMethod> = <P extends PathsWithMethod<paths, M>, I extends Init<P, M>>(
  path: P,
  ...init: InitArgs<I>
) => Promise<DataOf<P, M, I>>;

export interface SdapiClient {
  GET: Method<'get'>;
  POST: Method<'post'>;
  PUT: Method<'put'>;
  PATCH: Method<'patch'>;
  DELETE: Method<'delete'>;
  /** Every item of a cursor list, page after page (see paginate.ts). */
  paginate: ReturnType<typeof paginate>;
  /** The underlying openapi-fetch client (same headers, keys and retries; answers are not thrown). */
  raw: Client<paths>;
}

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A typed client: every call returns its success body or throws ApiError. */
export function createSdapiClient(options: ClientOptions): SdapiClient {
  const retry = { maxAttempts: 3, baseDelayMs: 250, maxRetryAfterMs: 30_000, ...options.retry };
  const baseFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const schemaPaths = new WeakMap<Request, string>();

  const fetchWithRetries = async (request: Request): Promise<Response> => {
    const retrySafe = isRetrySafe(request.method, schemaPaths.get(request));
    for (let attempt = 1; ; attempt++) {
      const signal = AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]);
      let outcome: Response | Error;
      try {
        outcome = await baseFetch(new Request(request.clone(), { signal }));
      } catch (error) {
        outcome = error instanceof Error ? error : new Error(String(error));
      }
      const delay = nextDelay(outcome, retrySafe, attempt, retry);
      if (delay === null) {
        if (outcome instanceof Error) throw outcome;
        return outcome;
      }
      if (outcome instanceof Response) await outcome.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };

  const raw = createClient<paths>({ baseUrl: options.baseUrl, fetch: fetchWithRetries });
  const contractDate = options.contractDate ?? CONTRACT_DATES[CONTRACT_DATES.length - 1];
  raw.use({
    onRequest({ request, schemaPath }) {
      request.headers.set('authorization', `Bearer ${options.apiKey}`);
      request.headers.set('x-service-api-version', contractDate as string);
      // One key per call, kept across its retries: a repeat is deduplicated, never run twice.
      if (MUTATIONS.has(request.method) && !request.headers.has('idempotency-key')) {
        request.headers.set('idempotency-key', randomUUID());
      }
      schemaPaths.set(request, schemaPath);
      return request;
    },
  });

  const call =
    (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE') =>
    async (path: string, init?: object): Promise<unknown> => {
      const send = raw[method] as (p: string, i?: object) => Promise<FetchResponse<never, never, never>>;
      const result = (await send(path, init)) as { data?: unknown; error?: unknown; response: Response };
      if (!result.response.ok) throw ApiError.from(result.response, result.error);
      return result.data;
    };

  const get = call('GET');
  const client = {
    GET: get,
    POST: call('POST'),
    PUT: call('PUT'),
    PATCH: call('PATCH'),
    DELETE: call('DELETE'),
    raw,
  } as unknown as Omit<SdapiClient, 'paginate'>;
  return { ...client, paginate: paginate(get) };
}
