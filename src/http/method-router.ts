import FindMyWay, { type HTTPMethod } from 'find-my-way';

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const shadow = FindMyWay({ ignoreTrailingSlash: false });
const registered = new Set<string>();

/** Mirrors every registered route so a 404 can tell "no such path" from "wrong method". */
export function rememberRoute(method: string, url: string): void {
  const id = `${method} ${url}`;
  if (registered.has(id) || url.includes('*') || !METHODS.includes(method as HTTPMethod)) return;
  registered.add(id);
  shadow.on(method as HTTPMethod, url, () => undefined);
}

export function allowedMethodsFor(path: string): string[] {
  return METHODS.filter((method) => shadow.find(method, path) !== null);
}
