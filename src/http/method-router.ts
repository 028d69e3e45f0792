import FindMyWay, { type HTTPMethod } from 'find-my-way';

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Mirrors the routes of one application so its 404 can tell "no such path" from "wrong method".
 * One per application: the seller listener must not answer 405 for a path only the operator
 * listener serves.
 */
export class MethodRouter {
  private readonly shadow = FindMyWay({ ignoreTrailingSlash: false });
  private readonly registered = new Set<string>();

  remember(method: string, url: string): void {
    const id = `${method} ${url}`;
    if (this.registered.has(id) || url.includes('*') || !METHODS.includes(method as HTTPMethod)) return;
    this.registered.add(id);
    this.shadow.on(method as HTTPMethod, url, () => undefined);
  }

  allowedMethodsFor(path: string): string[] {
    return METHODS.filter((method) => this.shadow.find(method, path) !== null);
  }
}
