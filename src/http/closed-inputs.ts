import type { FastifyInstance, RouteOptions } from 'fastify';

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

/**
 * Unknown body fields and query parameters are refused on every authenticated route (seller
 * and operator), declared schema or not: a misspelt filter (`?skuCode=` for `?sku=`) answers
 * 422 rather than silently listing everything. Runs when a route is added, before the OpenAPI
 * document and the validators read the schemas, so the document states it too.
 */
export function refuseUnknownInputs(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const auth = (route.config as { auth?: string } | undefined)?.auth;
    if (auth !== 'seller' && auth !== 'admin') return;
    route.schema ??= {};
    route.schema.querystring ??= NO_QUERY();
    closeObjects(route.schema.querystring);
    closeObjects(route.schema.body);
  });
}
