import { isDeepStrictEqual } from 'node:util';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyRequest } from 'fastify';
import type { App } from '../src/app.js';
import { closedCopy } from './openapi-response-check.js';

// ajv-formats is CommonJS: its default export arrives wrapped under NodeNext resolution.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const CONSOLE_API = '/console/api/';

/**
 * Watches every console call a test file makes (test/harness.ts installs it) and, when the file
 * ends, fails it if a console route's answer is not exactly what its response schema says: the
 * handler's value must match the schema with every object closed (a field the schema does not
 * name would be dropped by the serializer, so the console would silently lose it), and the text
 * sent must be that value unchanged (nothing dropped or converted on the way out).
 */
export function observeConsoleResponses(app: App) {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  const validators = new WeakMap<object, ValidateFunction>();
  const answered = new WeakMap<FastifyRequest, unknown>();
  const mismatches = new Set<string>();
  const validatorOf = (schema: object) => {
    let validate = validators.get(schema);
    if (!validate) {
      validate = ajv.compile(closedCopy(JSON.parse(JSON.stringify(schema))) as object);
      validators.set(schema, validate);
    }
    return validate;
  };
  const schemaOf = (request: FastifyRequest, status: number) => {
    const responses = request.routeOptions.schema?.response as Record<string, object> | undefined;
    return responses?.[String(status)];
  };

  app.addHook('preSerialization', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    if (!route?.startsWith(CONSOLE_API) || reply.statusCode >= 400) return payload;
    const where = `${request.method} ${route} ${reply.statusCode}`;
    const schema = schemaOf(request, reply.statusCode);
    if (!schema) {
      mismatches.add(`${where}: no response schema for this status`);
      return payload;
    }
    const value = JSON.parse(JSON.stringify(payload)) as unknown;
    answered.set(request, value);
    const validate = validatorOf(schema);
    if (!validate(value)) {
      const first = validate.errors?.[0];
      const params = (first?.params ?? {}) as Record<string, unknown>;
      const field = params.additionalProperty ?? params.unevaluatedProperty;
      mismatches.add(
        `${where}: ${first?.instancePath || '(root)'} ${first?.message}${field ? ` (${String(field)})` : ''}`,
      );
    }
    return payload;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (!answered.has(request) || typeof payload !== 'string') return payload;
    const sent = payload.length > 0 ? (JSON.parse(payload) as unknown) : undefined;
    if (!isDeepStrictEqual(sent, answered.get(request))) {
      mismatches.add(
        `${request.method} ${request.routeOptions.url} ${reply.statusCode}: the serialized answer differs from the handler's`,
      );
    }
    return payload;
  });

  return {
    finish(): void {
      if (mismatches.size > 0) {
        throw new Error(
          `Console answers that disagree with their response schema:\n${[...mismatches].join('\n')}`,
        );
      }
    },
  };
}
