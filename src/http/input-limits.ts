import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ApiError, fail } from './errors.js';

/** The deepest JSON body this service reads; its own bodies nest at most 6 levels. */
export const MAX_JSON_DEPTH = 32;

interface StringIssue {
  in: 'body' | 'query' | 'params' | 'headers';
  field: string;
  keyword: 'nul' | 'utf8' | 'maxDepth';
  message: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body as sent, decoded (null without one): the idempotency fingerprint's fast path. */
    bodyText: string | null;
  }
}

const refuse = (issue: StringIssue): ApiError =>
  fail('VALIDATION_FAILED', `${issue.in} ${issue.field}: ${issue.message}`, { issues: [issue] });

export const tooDeep = (): ApiError =>
  refuse({
    in: 'body',
    field: '(root)',
    keyword: 'maxDepth',
    message: `nests deeper than ${MAX_JSON_DEPTH} levels`,
  });

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a decoded string cannot be stored as text by either engine, or null. */
function stringFault(value: string): Pick<StringIssue, 'keyword' | 'message'> | null {
  if (value.includes('\u0000')) return { keyword: 'nul', message: 'must not contain NUL (U+0000)' };
  if (LONE_SURROGATE.test(value)) return { keyword: 'utf8', message: 'is not valid UTF-8 (lone surrogate)' };
  return null;
}

const INVALID_UTF8 = { keyword: 'utf8', message: 'is not valid UTF-8' } as const;

const fieldName = (path: string, part: string | number) =>
  typeof part === 'number' ? `${path}[${part}]` : path ? `${path}.${part}` : part;

/**
 * Walks a parsed body without recursion: refuses nesting beyond MAX_JSON_DEPTH and any key or
 * string value that holds NUL or a lone surrogate, naming the field.
 */
export function checkJsonValue(root: unknown): ApiError | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      const fault = stringFault(value);
      if (fault) return refuse({ in: 'body', field: path || '(root)', ...fault });
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return tooDeep();
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [i, v])
      : Object.entries(value);
    for (const [key, child] of entries) {
      const field = fieldName(path, key);
      const keyFault = typeof key === 'string' ? stringFault(key) : null;
      if (keyFault) return refuse({ in: 'body', field: field, ...keyFault });
      stack.push({ value: child, path: field, depth: depth + 1 });
    }
  }
  return null;
}

/** A key as JSON reads it; one the parser would refuse anyway is named `(key)`. */
function keyText(raw: Buffer): string {
  try {
    return String(JSON.parse(`"${raw.toString('utf8')}"`));
  } catch {
    return '(key)';
  }
}

/**
 * The JSON path of the first byte that breaks UTF-8 in a body that is not valid UTF-8 (JSON.parse
 * would read it as U+FFFD). A small tokenizer: it follows objects, arrays and strings only.
 */
export function fieldOfInvalidUtf8(raw: Buffer): string {
  const frames: { key: string | number | null; inObject: boolean }[] = [];
  const path = () =>
    frames.reduce((acc, f) => (f.key === null ? acc : fieldName(acc, f.key)), '') || '(root)';
  let expectKey = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i]!;
    const top = frames[frames.length - 1];
    if (byte === 0x22) {
      const start = i + 1;
      let end = start;
      while (end < raw.length && raw[end] !== 0x22) end += raw[end] === 0x5c ? 2 : 1;
      const text = raw.subarray(start, end);
      if (!isUtf8(text)) {
        if (top?.inObject && expectKey) top.key = '(key)';
        return path();
      }
      if (top?.inObject && expectKey) {
        top.key = keyText(text);
        expectKey = false;
      }
      i = end;
    } else if (byte === 0x7b || byte === 0x5b) {
      frames.push({ key: byte === 0x5b ? 0 : null, inObject: byte === 0x7b });
      expectKey = byte === 0x7b;
    } else if (byte === 0x7d || byte === 0x5d) {
      frames.pop();
    } else if (byte === 0x2c && top) {
      if (top.inObject) expectKey = true;
      else top.key = (top.key as number) + 1;
    } else if (byte >= 0x80) {
      return path();
    }
  }
  return '(root)';
}

function checkText(where: StringIssue['in'], field: string, value: unknown): ApiError | null {
  for (const item of [value].flat()) {
    if (typeof item !== 'string') continue;
    const fault = stringFault(item);
    if (fault) return refuse({ in: where, field, ...fault });
  }
  return null;
}

/** Query pairs as sent: a percent-encoding that is not UTF-8 is refused, not passed on raw. */
function checkQuery(url: string): ApiError | null {
  const at = url.indexOf('?');
  if (at < 0) return null;
  for (const pair of url.slice(at + 1).split('&')) {
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const key = decodeQueryPart(rawKey);
    if (key === null) return refuse({ in: 'query', field: rawKey, ...INVALID_UTF8 });
    const value = eq < 0 ? '' : decodeQueryPart(pair.slice(eq + 1));
    if (value === null) return refuse({ in: 'query', field: key, ...INVALID_UTF8 });
    const fault = checkText('query', key, key) ?? checkText('query', key, value);
    if (fault) return fault;
  }
  return null;
}

function decodeQueryPart(part: string): string | null {
  try {
    return decodeURIComponent(part.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

/**
 * Header values are Latin-1 on the wire; one that carries bytes beyond ASCII must be UTF-8.
 * Authorization is exempt: it is only ever hashed, and a bad credential answers 401.
 */
function checkHeaders(request: FastifyRequest): ApiError | null {
  const headers = request.headers;
  for (const name in headers) {
    if (name === 'authorization') continue;
    const value = headers[name];
    if (typeof value === 'string') {
      const fault = NOT_PLAIN_ASCII.test(value) ? checkHeaderValue(name, value) : null;
      if (fault) return fault;
    } else if (Array.isArray(value)) {
      for (const item of value) {
        const fault = NOT_PLAIN_ASCII.test(item) ? checkHeaderValue(name, item) : null;
        if (fault) return fault;
      }
    }
  }
  return null;
}

const NOT_PLAIN_ASCII = /[^\t\x20-\x7e]/;

function checkHeaderValue(name: string, value: string): ApiError | null {
  if (!isUtf8(Buffer.from(value, 'latin1'))) return refuse({ in: 'headers', field: name, ...INVALID_UTF8 });
  return checkText('headers', name, value);
}

function checkParams(params: unknown): ApiError | null {
  for (const [name, value] of Object.entries((params ?? {}) as Record<string, unknown>)) {
    const fault = checkText('params', name, value);
    if (fault) return fault;
  }
  return null;
}

/**
 * Input limits at the edge, before any handler or the idempotency hash: no text with NUL or
 * invalid UTF-8 reaches a database from the body (nor, see checkRequestText, from the path, the
 * query or a header), and no JSON body nests deeper than MAX_JSON_DEPTH. Bodies over
 * BODY_LIMIT_BYTES are refused with 413 by Fastify's own limit (app.ts).
 */
export function installJsonBodyParser(
  app: FastifyInstance,
  options: {
    /**
     * A body this claims (its text is one already parsed and answered: an idempotent replay)
     * is not parsed again; the claim's owner answers the request before validation.
     */
    answeredWithoutParsing?: (request: FastifyRequest, text: string) => boolean;
  } = {},
): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.decorateRequest('bodyText', null);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
    const bytes = raw as Buffer;
    if (!isUtf8(bytes)) {
      done(refuse({ in: 'body', field: fieldOfInvalidUtf8(bytes), ...INVALID_UTF8 }), undefined);
      return;
    }
    const text = bytes.toString('utf8');
    request.bodyText = text;
    if (options.answeredWithoutParsing?.(request, text)) return done(null, undefined);
    parseJson(request, text, (err, body) => {
      if (err) return done(err, undefined);
      const fault = checkJsonValue(body);
      return fault ? done(fault, undefined) : done(null, body);
    });
  });
}

/** The path, query and header half of the limits; the contract hook runs it before authentication. */
export const checkRequestText = (request: FastifyRequest): ApiError | null =>
  checkParams(request.params) ?? checkQuery(request.url) ?? checkHeaders(request);
