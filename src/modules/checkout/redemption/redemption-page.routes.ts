import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.js';
import { throttleByAddress } from '../../../http/public-throttle.js';
import { REDEEM_PATH } from './links.js';
import { REDEMPTION_PAGE_CSP, renderRedemptionPage, STATUS_OF } from './redemption-page.html.js';
import { type PageState, redemptionPage, revealOnPage } from './redemption-page.service.js';

/** Page views and reveals per address and minute: a buyer needs a handful; a link guesser is slowed. */
const PAGE_VIEWS_PER_MINUTE = 60;

type TokenRequest = FastifyRequest<{ Params: { token: string } }>;

function send(reply: FastifyReply, token: string, state: PageState, status = STATUS_OF[state.kind]) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .headers({
      'content-security-policy': REDEMPTION_PAGE_CSP,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-robots-tag': 'noindex, nofollow',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    })
    .send(renderRedemptionPage(state, `${REDEEM_PATH}/${encodeURIComponent(token)}/reveal`));
}

/**
 * The hosted redemption page of keyless fulfilments (docs/after-sale.md), served by the service
 * to the buyer's browser: GET shows the product, platform and activation instructions; the
 * form's POST reveals the keys. No key in the page before the buyer asks; the link's token is
 * in the path, which the request log never writes (it logs the route pattern).
 */
export function registerRedemptionPage(app: FastifyInstance, ctx: AppContext): void {
  app.register(async (page) => {
    // The page's form posts an empty urlencoded body; nothing in it is read.
    page.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_r, _b, done) =>
      done(null, undefined),
    );
    const view = (reveal: boolean) => async (request: TokenRequest, reply: FastifyReply) => {
      const { token } = request.params;
      const throttle = await throttleByAddress(ctx, request, 'redeem', PAGE_VIEWS_PER_MINUTE);
      if (!throttle.allowed) {
        reply.header('retry-after', String(throttle.retryAfterSec));
        return send(reply, token, { kind: 'unknown' }, 429);
      }
      return send(reply, token, reveal ? await revealOnPage(ctx, token) : await redemptionPage(ctx, token));
    };
    // Both answers carry the link (the form posts back to it); the reveal carries the keys.
    const options = {
      config: { auth: 'none' as const, carriesSecret: true as const },
      schema: { hide: true },
    };
    page.get(`${REDEEM_PATH}/:token`, options, view(false));
    page.post(`${REDEEM_PATH}/:token/reveal`, options, view(true));
  });
}
