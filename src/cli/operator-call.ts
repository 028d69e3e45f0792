import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { type ErrorCode, fail } from '../http/errors.js';
import type { TypedApp } from '../http/typed-app.js';
import { buildOperatorApp } from '../operator-app.js';

export interface OperatorReply {
  data: unknown;
  meta?: Record<string, unknown>;
}

/**
 * Calls the operator API in-process, so a command gets exactly the API's validation and errors.
 * `routes` mounts the routes the command needs (all of them for `sdapi admin`); a failure
 * is thrown as the ApiError the API answered.
 */
export async function operatorCall(
  ctx: AppContext,
  routes: (admin: TypedApp) => void | Promise<void>,
  request: { method: string; path: string; query?: Record<string, string | undefined>; payload?: string },
): Promise<OperatorReply> {
  const app: App = await buildOperatorApp(ctx, routes);
  try {
    const query = Object.entries(request.query ?? {}).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    );
    const search = query.length > 0 ? `?${new URLSearchParams(query)}` : '';
    const response = await app.inject({
      method: request.method.toUpperCase() as 'GET',
      url: `/admin/v1${request.path.startsWith('/') ? request.path : `/${request.path}`}${search}`,
      headers: {
        authorization: `Bearer ${ctx.config.adminToken}`,
        ...(request.payload ? { 'content-type': 'application/json' } : {}),
      },
      payload: request.payload,
    });
    const body = response.body ? JSON.parse(response.body) : null;
    if (response.statusCode >= 400) {
      throw fail(
        (body?.code ?? 'INTERNAL_ERROR') as ErrorCode,
        body?.message ?? 'failed',
        body?.details ?? {},
      );
    }
    return { data: body?.data ?? body, meta: body?.meta };
  } finally {
    await app.close();
  }
}
