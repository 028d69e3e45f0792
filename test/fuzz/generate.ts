/**
 * Seeded bad requests generated from the served OpenAPI document: for each operation, a
 * near-valid request built from its schemas, then broken in one to three ways (wrong types,
 * missing and extra fields, huge and deep values, NUL and invalid UTF-8, bad path ids, odd
 * headers). No test framework here: the bench runs it too.
 */

export type Rng = () => number;

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

type Schema = Record<string, unknown>;

export interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  query: { name: string; schema: Schema }[];
  body: Schema | null;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; schema?: Schema }[];
        requestBody?: { content?: Record<string, { schema?: Schema }> };
      }
    >
  >;
}

export function operationsOf(document: unknown): Operation[] {
  const doc = document as OpenApiDocument;
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      query: (op.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => ({ name: p.name, schema: p.schema ?? {} })),
      body: op.requestBody?.content?.['application/json']?.schema ?? null,
    })),
  );
}

const deep = (levels: number): unknown => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`);

/** Values no field of this API accepts everywhere: each must be refused in the envelope. */
const BAD_VALUES: readonly (() => unknown)[] = [
  () => null,
  () => true,
  () => 0,
  () => -1,
  () => 2 ** 53 + 1,
  () => 1e308,
  () => -1e308,
  () => 0.5,
  () => '',
  () => ' ',
  () => '\u0000',
  () => 'a\u0000b',
  () => '\ud800',
  () => 'x'.repeat(5000),
  () => '😀'.repeat(300),
  () => '../../etc/passwd',
  () => "'; drop table orders; --",
  () => '%00',
  () => '\u202e\u0301',
  () => '9'.repeat(400),
  () => '2026-13-45T99:99:99Z',
  () => 'NaN',
  () => [],
  () => [null, 1, 'a'],
  () => ({}),
  () => ({ a: { b: { c: [1] } } }),
  () => deep(40),
  () => Array.from({ length: 2000 }, (_, i) => i),
];

export const badValue = (rng: Rng): unknown => pick(rng, BAD_VALUES)();

/** A value the schema admits, as far as simple keywords tell (patterns and formats roughly). */
export function sample(schema: Schema, rng: Rng, depth = 0): unknown {
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return pick(rng, schema.enum);
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (union?.length) return sample(pick(rng, union), rng, depth);
  const type = Array.isArray(schema.type)
    ? pick(rng, schema.type as string[])
    : (schema.type as string | undefined);
  switch (type) {
    case 'string':
      return sampleString(schema, rng);
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return rng() < 0.5;
    case 'null':
      return null;
    case 'array': {
      if (depth > 6) return [];
      const count = Math.max(Number(schema.minItems ?? 0), rng() < 0.7 ? 1 : 0);
      return Array.from({ length: count }, () => sample((schema.items as Schema) ?? {}, rng, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set((schema.required as string[]) ?? []);
      for (const [name, child] of Object.entries((schema.properties as Record<string, Schema>) ?? {})) {
        if (required.has(name) || rng() < 0.5) out[name] = sample(child, rng, depth + 1);
      }
      return out;
    }
    default:
      return 'x';
  }
}

function sampleString(schema: Schema, rng: Rng): string {
  switch (schema.format) {
    case 'uuid':
      return `0190a8a0-0000-7000-8000-0000000000${String(Math.floor(rng() * 90) + 10)}`;
    case 'date-time':
      return new Date(Date.UTC(2026, 0, 1 + Math.floor(rng() * 600))).toISOString();
  }
  const min = Number(schema.minLength ?? 1);
  return pick(rng, [
    'US',
    'DE',
    'USD',
    'EUR',
    'SANDBOX-ALWAYS-001',
    'web',
    'en',
    'a'.repeat(Math.max(min, 1)),
  ]);
}

/** One to three breakages of a near-valid body; some are raw bytes the JSON parser never sees. */
export function brokenBody(
  schema: Schema | null,
  rng: Rng,
): { payload?: string | Buffer; contentType?: string } {
  const roll = rng();
  if (roll < 0.06)
    return { payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) };
  if (roll < 0.1) return { payload: '{"a":' };
  if (roll < 0.13) return { payload: `${'['.repeat(5000)}${']'.repeat(5000)}` };
  if (roll < 0.16) return { payload: '' };
  if (roll < 0.19)
    return {
      payload: 'name=x',
      contentType: pick(rng, ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']),
    };
  if (roll < 0.22) return { payload: JSON.stringify(badValue(rng)) };
  const body = (schema ? sample(schema, rng) : {}) as Record<string, unknown>;
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { payload: JSON.stringify(body) };
  for (let i = 1 + Math.floor(rng() * 3); i > 0; i--) {
    const keys = Object.keys(body);
    const mutation = rng();
    if (mutation < 0.45 && keys.length) body[pick(rng, keys)] = badValue(rng);
    else if (mutation < 0.65 && keys.length) delete body[pick(rng, keys)];
    else body[pick(rng, ['extra', '__proto__x', 'constructor', 'a\u0000', ''])] = badValue(rng);
  }
  return { payload: JSON.stringify(body) };
}

/** Text for the URL: usually percent-encoded, sometimes raw escapes that are not UTF-8 or are NUL. */
export function urlText(rng: Rng, value: unknown): string {
  const roll = rng();
  if (roll < 0.08) return pick(rng, ['%ff', '%00', '%ED%A0%80', '%', '%zz', '%C3', 'a%00b']);
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
  return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd')).slice(0, 3000);
}

const PATH_IDS = [
  '0',
  '-1',
  'null',
  '..',
  '%2e%2e',
  'ORD-1',
  'alloc_1',
  '0190a8a0-0000-7000-8000-000000000000',
];

export function brokenUrl(op: Operation, rng: Rng): string {
  let path = op.path;
  for (const name of op.pathParams) {
    const id = rng() < 0.5 ? pick(rng, PATH_IDS) : urlText(rng, badValue(rng));
    path = path.replace(`{${name}}`, id || 'x');
  }
  const pairs: string[] = [];
  for (const param of op.query) {
    if (rng() < 0.5) continue;
    const value = rng() < 0.4 ? sample(param.schema, rng) : badValue(rng);
    pairs.push(`${encodeURIComponent(param.name)}=${urlText(rng, value)}`);
    if (rng() < 0.1) pairs.push(`${encodeURIComponent(param.name)}=${urlText(rng, badValue(rng))}`);
  }
  if (rng() < 0.1) pairs.push(`${urlText(rng, badValue(rng))}=1`);
  return pairs.length ? `${path}?${pairs.join('&')}` : path;
}

/** Headers a client may send wrong; `auth` holds the valid credentials of the run. */
export function oddHeaders(rng: Rng, auth: readonly Record<string, string>[]): Record<string, string> {
  const headers: Record<string, string> = { ...pick(rng, auth) };
  if (rng() < 0.1)
    headers.authorization = pick(rng, ['', 'Bearer', 'Bearer x', 'Basic YTpi', `Bearer ${'a'.repeat(3000)}`]);
  if (rng() < 0.4)
    headers['idempotency-key'] = pick(rng, [
      'k-1',
      `k-${Math.floor(rng() * 50)}`,
      '',
      ' ',
      'a b',
      'x'.repeat(300),
      'é',
    ]);
  if (rng() < 0.15)
    headers['x-service-api-version'] = pick(rng, [
      '2026-09-01',
      '2026-04-29',
      '1999-01-01',
      'latest',
      '2026-02-30',
      '',
    ]);
  if (rng() < 0.1)
    headers['x-service-sandbox-simulate'] = pick(rng, [
      'nonsense',
      'RATE_LIMIT',
      '',
      'rate_limit',
      'webhook_delay_30s',
    ]);
  if (rng() < 0.1)
    headers['x-forwarded-for'] = pick(rng, ['not-an-ip', '1.2.3.4, zzz', '::ffff:999.1.1.1', '']);
  if (rng() < 0.1) headers.accept = pick(rng, ['text/html', 'application/xml', '*/*;q=0', 'garbage']);
  if (rng() < 0.05) headers['x-odd'] = 'r\u00e9\u00ff';
  return headers;
}
