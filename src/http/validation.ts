import { Ajv, type FuncKeywordDefinition, type Options, type SchemaValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

// ajv-formats is CommonJS: its default export arrives wrapped under NodeNext resolution.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const toLowerCase: SchemaValidateFunction = (on: boolean, data: string, _schema, cxt) => {
  if (on && cxt?.parentData) cxt.parentData[cxt.parentDataProperty] = data.toLowerCase();
  return true;
};

/**
 * `x-lowercase: true` hands the handler the value lower-cased, so an id sent upper-case finds the
 * row stored lower-case. An `x-` name, so the keyword stays a valid extension in the OpenAPI document.
 */
const lowercase: FuncKeywordDefinition = {
  keyword: 'x-lowercase',
  type: 'string',
  schemaType: 'boolean',
  modifying: true,
  errors: false,
  validate: toLowerCase,
};

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    ...options,
  });
  addFormats(ajv);
  // ajv-formats also admits a `urn:uuid:` prefix; no id here is a URN, so `uuid` is the 36-character form.
  ajv.addFormat('uuid', /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i);
  ajv.addKeyword(lowercase);
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
