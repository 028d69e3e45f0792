import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { fail } from './errors.js';

interface ObjectSchema {
  type?: unknown;
  properties?: Record<string, unknown>;
  additionalProperties?: unknown;
  patternProperties?: unknown;
  items?: unknown;
  anyOf?: unknown[];
  oneOf?: unknown[];
}

/**
 * Closes every object of an input schema that does not say what it does with other fields:
 * `additionalProperties: false`, so an unknown field answers VALIDATION_FAILED naming it
 * instead of being ignored. An object that declares extra keys (a map) keeps its declaration.
 */
export function closeObjects(schema: unknown): void {
  if (!schema || typeof schema !== 'object') return;
  const node = schema as ObjectSchema;
  if (node.properties && node.additionalProperties === undefined && node.patternProperties === undefined) {
    node.additionalProperties = false;
  }
  for (const child of Object.values(node.properties ?? {})) closeObjects(child);
  closeObjects(node.items);
  // Not into allOf: each member closed would refuse the other members' fields.
  for (const list of [node.anyOf, node.oneOf]) for (const child of list ?? []) closeObjects(child);
}

/** A query string that admits no parameter: for the authenticated routes that declare none. */
const NO_QUERY = () => ({ type: 'object', properties: {}, additionalProperties: false });

const isStream = (body: unknown) => typeof (body as { pipe?: unknown } | null)?.pipe === 'function';

/**
 * A route that declares no body takes none: any content is refused (422 naming each field of
 * an object, or the body itself), never ignored. An empty body (`{}`, empty text) says nothing
 * and passes. A route that reads its body as a stream (`config.streamedBody`) takes only that.
 */
async function refuseUndeclaredBody(request: FastifyRequest): Promise<void> {
  const body = request.body;
  const streamed = request.routeOptions.config.streamedBody;
  if (streamed) {
    if (body === undefined || isStream(body)) return;
    throw fail('UNSUPPORTED_MEDIA_TYPE', `Send the body as ${Object.keys(streamed).join(' or ')}.`);
  }
  if (body === undefined || body === null || body === '') return;
  const fields =
    typeof body === 'object' && !Array.isArray(body) && !isStream(body) ? Object.keys(body) : null;
  if (fields?.length === 0) return;
  const issues = (fields ?? ['(root)']).map((field) => ({
    field,
    in: 'body',
    message: fields ? 'is not a field of this request; remove it' : 'this operation takes no body; send none',
    keyword: 'additionalProperties',
  }));
  const first = issues[0]!;
  throw fail('VALIDATION_FAILED', `body ${first.field}: ${first.message}`, { issues });
}

/**
 * Unknown body fields and query parameters are refused on every authenticated route (seller
 * and operator), declared schema or not: a misspelt filter (`?skuCode=` for `?sku=`) answers
 * 422 rather than silently listing everything. A body sent to a documented route that declares
 * none is refused the same way. Runs when a route is added, before the OpenAPI document and the
 * validators read the schemas, so the document states it too.
 */
export function refuseUnknownInputs(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const auth = (route.config as { auth?: string } | undefined)?.auth;
    if (auth === undefined || route.schema?.hide) return;
    if (route.schema?.body === undefined) {
      route.preValidation = [refuseUndeclaredBody, ...[route.preValidation ?? []].flat()];
    }
    if (auth !== 'seller' && auth !== 'admin') return;
    route.schema ??= {};
    route.schema.querystring ??= NO_QUERY();
    closeObjects(route.schema.querystring);
    closeObjects(route.schema.body);
  });
}
