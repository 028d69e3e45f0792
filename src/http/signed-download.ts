import { Type } from '@sinclair/typebox';
import type { AppContext } from '../context.js';
import { fail } from './errors.js';
import { ApiErrorRef, Uuid } from './schemas.js';
import type { TypedApp } from './typed-app.js';

/** The signature of a download link to `id` of a kind (`catalog-export`, `finance-report`) until `expires` (unix s). */
export function downloadSignature(ctx: AppContext, kind: string, id: string, expires: number): string {
  if (!ctx.secrets)
    throw fail('SERVICE_UNAVAILABLE', 'SDAPI_MASTER_KEY is not configured; downloads cannot be signed.');
  return ctx.secrets.sign(`${kind}:${id}:${expires}`);
}

export interface ArtifactRoute {
  /** Path with the id parameter, e.g. `/reports/:reportId/artifact`. */
  path: string;
  param: string;
  tag: string;
  contentType: string;
  description: string;
  fileName: (id: string) => string;
  /** The bytes behind a link; throws 403 for a bad or stale link, 404 or 410 as the artifact stands. */
  load: (id: string, expires: number, signature: string) => Promise<Buffer>;
}

/** The unauthenticated GET behind a signed download URL: the signature is the credential. */
export function registerArtifactRoute(app: TypedApp, route: ArtifactRoute): void {
  app.get(route.path, {
    config: { auth: 'none', carriesSecret: true },
    schema: {
      tags: [route.tag],
      summary: 'The artifact behind a signed download URL (no API key: the signature is the credential).',
      security: [],
      params: Type.Object({ [route.param]: Uuid }),
      querystring: Type.Object({
        expires: Type.Integer({ minimum: 0 }),
        signature: Type.String({ maxLength: 100 }),
      }),
      response: {
        200: {
          description: route.description,
          headers: {
            'Content-Disposition': { type: 'string', description: 'attachment, with the file name' },
          },
          content: { [route.contentType]: { schema: { type: 'string', format: 'binary' } } },
        },
        403: ApiErrorRef,
        404: ApiErrorRef,
        410: ApiErrorRef,
        422: ApiErrorRef,
      },
    },
    handler: async (request, reply) => {
      const id = (request.params as Record<string, string>)[route.param]!;
      const { expires, signature } = request.query as { expires: number; signature: string };
      const artifact = await route.load(id, expires, signature);
      return reply
        .type(route.contentType)
        .header('Content-Disposition', `attachment; filename="${route.fileName(id)}"`)
        .send(artifact);
    },
  });
}
