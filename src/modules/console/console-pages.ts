import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { fail } from '../../http/errors.js';

/** The built web app (npm run build writes it): console/dist, three levels above this module in src/ and dist/. */
export const CONSOLE_DIST = fileURLToPath(new URL('../../../console/dist/', import.meta.url));

/**
 * Only this origin's own files: no inline script or style, no eval, no frames, no plug-ins, and
 * forms and fetches go nowhere else.
 */
export const consoleContentSecurityPolicy = (nonce: string) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    // The dialog library adds one <style> element at run time; it carries this page's nonce.
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const ASSET_NAME = /^[A-Za-z0-9._-]{1,120}$/;

const securityHeaders = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/**
 * GET /console and every page under it: the single-page app's index.html (its router picks the
 * page); /console/assets/*: the hashed bundles, cached for a year. Files are read once.
 */
export function registerConsolePages(app: FastifyInstance): void {
  const cache = new Map<string, Buffer>();
  const read = (path: string) => {
    let body = cache.get(path);
    if (!body) {
      body = readFileSync(path);
      cache.set(path, body);
    }
    return body;
  };
  const index = () => {
    const path = join(CONSOLE_DIST, 'index.html');
    if (!existsSync(path)) throw fail('SERVICE_UNAVAILABLE', 'The console is not built: run npm run build.');
    return read(path);
  };

  /** Each page load gets a fresh nonce, in the CSP header and in a meta tag the app reads. */
  const page = async (_request: unknown, reply: import('fastify').FastifyReply) => {
    const nonce = randomBytes(16).toString('base64');
    const html = index()
      .toString('utf8')
      .replace('<head>', `<head>\n    <meta name="csp-nonce" content="${nonce}" />`);
    return reply
      .headers(securityHeaders)
      .header('content-security-policy', consoleContentSecurityPolicy(nonce))
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html);
  };

  app.get('/console', { config: { auth: 'none' }, schema: { hide: true } }, page);
  app.get<{ Params: { '*': string } }>(
    '/console/*',
    { config: { auth: 'none' }, schema: { hide: true } },
    async (request, reply) => {
      const rest = request.params['*'];
      if (rest.startsWith('api/') || rest === 'api')
        throw fail('NOT_FOUND', `No console call ${request.url}.`);
      if (rest.startsWith('assets/')) {
        const name = rest.slice('assets/'.length);
        const path = join(CONSOLE_DIST, 'assets', name);
        if (!ASSET_NAME.test(name) || !existsSync(path)) throw fail('NOT_FOUND', `No console file ${name}.`);
        return reply
          .headers(securityHeaders)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .type(TYPES[extname(name)] ?? 'application/octet-stream')
          .send(read(path));
      }
      return page(request, reply);
    },
  );
}
