import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type SerializerFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
>;
type Serializer = (data: unknown) => string;

const buildFastifysOwn = SerializerSelector();
const compiled = new Map<string, Serializer>();

/**
 * Fastify's own response serializers (fast-json-stringify), one per distinct schema for the
 * whole process: every app built here (the seller and operator apps, the tests' apps) takes them
 * from one table, so a response schema is compiled once, not once per app. Keyed by the JSON of
 * the shared schemas, the options and the route's schema: each build makes its schema objects afresh.
 */
export const buildSerializerOncePerProcess: SerializerFactory = (externalSchemas, options) => {
  const compile = buildFastifysOwn(externalSchemas, options);
  const shared = JSON.stringify([externalSchemas ?? null, options ?? null]);
  return (route) => {
    const key = `${shared}\n${JSON.stringify(route.schema)}`;
    let serializer = compiled.get(key);
    if (!serializer) {
      serializer = compile(route);
      compiled.set(key, serializer);
    }
    return serializer;
  };
};
