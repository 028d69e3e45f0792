import { call } from '../api/client';
import type { paths } from './schema';

/** The console API's paths as the routes declare them (`/keys/{id}`), without the /console/api prefix. */
type Full = keyof paths;
type Strip<P> = P extends `/console/api${infer Rest}` ? Rest : never;
export type ConsolePath = Strip<Full>;
type Entry<P extends ConsolePath> = paths[`/console/api${P}` & Full];
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type MethodOf<P extends ConsolePath> = {
  [M in Method]: Entry<P>[M & keyof Entry<P>] extends { responses: unknown } ? M : never;
}[Method];
type Operation<P extends ConsolePath, M extends MethodOf<P>> = Entry<P>[M & keyof Entry<P>];

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;
/** The body of the route's success answer (generated from its response schema). */
export type Answer<P extends ConsolePath, M extends MethodOf<P>> =
  Operation<P, M> extends { responses: infer R } ? JsonOf<R[keyof R]> : never;
/** The JSON body the route takes. */
export type Body<P extends ConsolePath, M extends MethodOf<P>> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** The query parameters the route takes. */
export type Query<P extends ConsolePath, M extends MethodOf<P>> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** The path parameters the route takes. */
export type Params<P extends ConsolePath, M extends MethodOf<P>> =
  Operation<P, M> extends { parameters: { path?: infer Q } } ? NonNullable<Q> : never;

interface Options<P extends ConsolePath, M extends MethodOf<P>> {
  params?: Params<P, M>;
  query?: Query<P, M> | URLSearchParams;
  body?: Body<P, M>;
}

/** `/keys/{id}` with `{ id }` filled in (each value URL-encoded). */
export function pathWith(path: string, params: Record<string, unknown> = {}): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
}

function searchOf(query: object | undefined): string {
  if (!query) return '';
  const search =
    query instanceof URLSearchParams
      ? query
      : new URLSearchParams(
          Object.entries(query)
            .filter(([, value]) => value !== undefined && value !== null && value !== '')
            .map(([name, value]) => [name, String(value)]),
        );
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** One console call, typed by the generated schema of its route. */
export function request<P extends ConsolePath, M extends MethodOf<P>>(
  method: M,
  path: P,
  options: Options<P, M> = {},
): Promise<Answer<P, M>> {
  const url = `${pathWith(path, options.params as Record<string, unknown>)}${searchOf(options.query as object)}`;
  return call<Answer<P, M>>(method.toUpperCase(), url, options.body);
}
