import {
  Ajv,
  type FuncKeywordDefinition,
  type Options,
  type SchemaValidateFunction,
  type ValidateFunction,
} from 'ajv';
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

/** A compiler and what it has compiled, by the schema's JSON (each app build makes its schema objects afresh). */
interface Compiler {
  ajv: Ajv;
  compiled: Map<string, ValidateFunction>;
}

/**
 * One validator per distinct schema and part for the whole process: every app built here (the
 * seller and operator apps, the tests' apps) takes its validators from these two compilers, so a
 * schema is compiled once, not once per app.
 */
const coercing: Compiler = { ajv: makeAjv({ coerceTypes: 'array' }), compiled: new Map() };
const strict: Compiler = { ajv: makeAjv({ coerceTypes: false }), compiled: new Map() };

/**
 * Query strings, path params and headers arrive as text, so their validator coerces ("5" -> 5,
 * "a" -> ["a"]); bodies are JSON and are validated as sent: `{"name": 42}` is a type error,
 * never the string "42".
 */
export function installValidators(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const { ajv, compiled } = httpPart === 'body' ? strict : coercing;
    const text = JSON.stringify(schema);
    let validate = compiled.get(text);
    if (!validate) {
      validate = ajv.compile(schema as FastifySchema & object);
      compiled.set(text, validate);
    }
    return validate;
  });
}
