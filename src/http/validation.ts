import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

// ajv-formats is CommonJS: its default export arrives wrapped under NodeNext resolution.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    ...options,
  });
  addFormats(ajv);
  return ajv;
}

/**
 * Query strings, path params and headers arrive as text, so their validator coerces ("5" -> 5,
 * "a" -> ["a"]); bodies are JSON and are validated as sent: `{"name": 42}` is a type error,
 * never the string "42".
 */
export function installValidators(app: FastifyInstance): void {
  const coercing = makeAjv({ coerceTypes: 'array' });
  const strict = makeAjv({ coerceTypes: false });
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    return ajv.compile(schema as FastifySchema & object);
  });
}
