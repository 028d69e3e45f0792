import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { constantTimeEqual } from '../lib/crypto.js';
import { authenticateSeller, requireScopes } from './auth/authenticate.js';
import { resolveSellerScope } from './auth/seller-scope.js';
import { type ProxyTrust, proxyTrustFrom, resolveClientIp } from './client-ip.js';
import { fail } from './errors.js';
import {
  beginIdempotentRequest,
  finishIdempotentRequest,
  replayRemembered,
} from './idempotency/idempotency.js';
import { checkRequestText } from './input-limits.js';
import { peekCachedPage } from './page-cache.js';
import { applySandboxRateLimit } from './rate-limit.js';
import { parseSimulate, SIMULATE_HEADER, shortCircuitFor } from './simulate.js';
import { stampSunset } from './sunsets.js';
import { API_MAJOR_VERSION, resolveContractDate } from './versioning.js';

/**
 * The contract every route shares, in order: response headers and the contract date;
 * then, as the route declares, admin or seller authentication, scopes, the sandbox simulate
 * header, sandbox rate limits and the seller the request acts for; idempotency once the body is
 * parsed and valid.
 */
export function installContractHooks(app: FastifyInstance, ctx: AppContext): void {
  const trusts: ProxyTrust = proxyTrustFrom(ctx.config.trustProxy);
  app.decorateRequest('principal', null);
  app.decorateRequest('seller', null);
  app.decorateRequest('simulate', null);
  app.decorateRequest('clientIp', null);
  app.decorateRequest('transientFailure', false);
  app.decorateRequest('idempotencyRecord', null);
  app.decorateRequest('rememberedReplay', null);
  app.decorateRequest('contractDate', '2026-09-01');
  app.decorateRequest('cachedPage', null);

  app.addHook('onRequest', async (request, reply) => {
    await ctx.testClock?.sync();
    const now = ctx.clock.now();
    const pinned = request.headers['x-service-api-version'];
    const { date, refusal } = resolveContractDate(Array.isArray(pinned) ? pinned[0] : pinned, now);
    // Lower-case names, as Fastify stores them: a name it must lower-case first costs a
    // string-table lookup on every request.
    reply
      .header('x-api-version', API_MAJOR_VERSION)
      .header('x-request-id', request.id)
      .header('x-service-api-version', date);
    if (refusal) throw refusal;
    request.contractDate = date;
    if (!refusal && pinned !== undefined && String(pinned).trim() !== '')
      await stampSunset(ctx, reply, date, now);
    const badText = checkRequestText(request);
    if (badText) throw badText;

    request.clientIp = resolveClientIp(request, trusts);
    const config = request.routeOptions.config;
    if (config.auth === 'admin') return authenticateAdmin(ctx, request.headers.authorization);
    if (config.auth !== 'seller') return;
    const principal = await authenticateSeller(
      ctx,
      request.headers.authorization,
      request.clientIp,
      request.raw.socket,
    );
    request.principal = principal;
    requireScopes(principal, config.scopes);
    request.simulate = parseSimulate(request.headers[SIMULATE_HEADER], principal.environment);
    const simulated = shortCircuitFor(request.simulate);
    if (simulated) throw simulated;
    if (config.pageCacheKey)
      request.cachedPage = peekCachedPage(ctx, config.pageCacheKey(request), now) ?? null;
    await applySandboxRateLimit(ctx.rateLimits, request, reply, now);
    if (config.actsForSeller !== false) request.seller = await resolveSellerScope(ctx, principal);
  });

  // Idempotency hooks ride only on the routes that accept the header: no cost elsewhere.
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotency) return;
    route.preValidation = [
      ...[route.preValidation ?? []].flat(),
      // A replay found before parsing is answered here: no validation, and `done` not called.
      (request, reply, done) => {
        if (request.rememberedReplay) replayRemembered(ctx, request.rememberedReplay, reply).catch(done);
        else done();
      },
    ];
    route.preHandler = [
      ...[route.preHandler ?? []].flat(),
      (request, reply) => beginIdempotentRequest(ctx, request, reply),
    ];
    route.onSend = [
      ...[route.onSend ?? []].flat(),
      (request, reply, payload, done) => {
        // A replay, or a route call without the header, has no claim to complete.
        if (!request.idempotencyRecord) return done(null, payload);
        // The reply is decided: a claim the store cannot write now never turns it into another.
        finishIdempotentRequest(ctx, request, reply, payload).then(
          () => done(null, payload),
          (err: unknown) => {
            request.log.error({ err }, 'idempotency record not written');
            done(null, payload);
          },
        );
      },
    ];
  });
}

function authenticateAdmin(ctx: AppContext, authorization: string | undefined): void {
  const expected = ctx.config.adminToken;
  const given = authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : '';
  if (!expected) {
    throw fail('FORBIDDEN', 'The operator API is disabled: set SDAPI_ADMIN_TOKEN.').withHint(
      'Start the service with SDAPI_ADMIN_TOKEN set to enable the operator API.',
    );
  }
  if (!constantTimeEqual(given, expected)) {
    throw fail('UNAUTHORIZED', 'Send Authorization: Bearer <SDAPI_ADMIN_TOKEN>.', {
      reason: 'admin_token_invalid',
    }).withHint('Send the operator token the service was started with (SDAPI_ADMIN_TOKEN).');
  }
}
