import { type AppContext, runInBackground } from '../../context.js';
import { getCompany } from '../companies/index.js';
import { endpointDisabledMail } from '../mail/index.js';
import type { EndpointDisabledNotice, OwnerMail } from '../webhooks/index.js';
import * as repo from './console.repo.js';

/**
 * `system.webhook_endpoint_disabled` by e-mail to the company's console owners (and no one
 * else), after the commit that disabled the endpoint, when an SMTP server is configured.
 */
function mailOwnersEndpointDisabled(ctx: AppContext, notice: EndpointDisabledNotice): void {
  if (!ctx.mailer.enabled) return;
  void runInBackground(ctx, async () => {
    const company = await getCompany(ctx, notice.companyId, ctx.db);
    const owners = (await repo.listUsers(ctx.db, notice.companyId)).filter((user) => user.role === 'owner');
    for (const owner of owners) {
      await ctx.mailer.send(
        endpointDisabledMail({
          to: owner.email,
          companyName: company?.name ?? notice.companyId,
          environment: notice.environment,
          endpointId: notice.endpointId,
          endpointHost: notice.endpointHost,
          reason: notice.reason,
          disabledAt: new Date(notice.disabledAt).toISOString(),
          consoleUrl: `${ctx.config.publicUrl}/console/webhooks`,
        }),
      );
    }
  });
}

/** What webhooks is given to tell owners (`AppContext.ownerMail`). */
export function consoleOwnerMail(contextOf: () => AppContext): OwnerMail {
  return { endpointDisabled: (notice) => mailOwnersEndpointDisabled(contextOf(), notice) };
}
