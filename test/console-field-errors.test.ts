import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ALLOWLIST_SENTENCES,
  formErrorsOf,
  KEYWORD_SENTENCES,
  ruleSentence,
  sentenceOf,
  WEBHOOK_URL_SENTENCES,
} from '../console/src/components/field-errors.js';
import { IP_ENTRY_PROBLEMS } from '../src/lib/ip.js';
import { WEBHOOK_URL_REASONS } from '../src/modules/webhooks/webhook-url.js';

/** The schema keywords of the API's request schemas (Ajv's names). */
const SCHEMA_KEYWORDS = [
  'required',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'enum',
  'const',
  'type',
  'additionalProperties',
  'minItems',
  'maxItems',
  'uniqueItems',
  'oneOf',
  'anyOf',
];

/**
 * Keywords passed through the services' small refusal helpers (`validation(field, message,
 * keyword)`, `refusal(...)`, `notResettable(message, keyword)`) rather than written as `keyword:`.
 */
const HELPER_KEYWORDS = ['strength', 'self', 'state', 'unique', 'format', 'enum', 'minLength'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

/** An Ajv keyword the service defines that only rewrites a value and never refuses one. */
const NEVER_REFUSES = new Set(['x-lowercase']);

/** Every keyword the server's own checks write into an issue (`keyword: 'range'`, `keyword = 'required'`). */
function serverKeywords(): string[] {
  const found = new Set<string>();
  for (const file of sourceFiles('src')) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/keyword(?::| =) '([\w-]+)'/g)) found.add(match[1]!);
    for (const match of text.matchAll(/keyword: ((?:'[\w-]+' \| )+'[\w-]+');/g)) {
      for (const literal of match[1]!.matchAll(/'([\w-]+)'/g)) found.add(literal[1]!);
    }
  }
  return [...found].filter((keyword) => !NEVER_REFUSES.has(keyword)).sort();
}

/** A failed call as the console's client throws it (ConsoleError's shape). */
const failed = (code: string, message: string, issues: object[] = []) =>
  Object.assign(new Error(message), { status: 422, body: { code, message, details: { issues } } });
const refusal = (issues: object[]) => failed('VALIDATION_FAILED', 'The request does not match.', issues);

/** A sentence a seller can read: capital first, a stop at the end, no code words of the API. */
function expectSellerWords(sentence: string) {
  expect(sentence).toMatch(/^[A-Z0-9"“]/);
  expect(sentence).toMatch(/[.!?]$/);
  expect(sentence).not.toMatch(/must NOT|\^|\$\/|_[a-z]+_|body \w+:|\[object/);
}

describe('the console words every validation issue for a seller', () => {
  it('has a sentence for every keyword the API writes, schema or service', () => {
    const keywords = [...new Set([...SCHEMA_KEYWORDS, ...HELPER_KEYWORDS, ...serverKeywords()])];
    expect(serverKeywords()).toEqual(expect.arrayContaining(['range', 'iso3166-1', 'iso4217', 'noBody']));
    const missing = keywords.filter((keyword) => !KEYWORD_SENTENCES[keyword]);
    expect(missing, `keywords without a sentence: ${missing.join(', ')}`).toEqual([]);
    for (const keyword of keywords) {
      const sentence = sentenceOf(
        { field: 'name', message: 'is wrong', keyword, params: { limit: 3, entry: '203.0.113.9/8' } },
        { label: 'Name' },
        'The name is wrong.',
      );
      expectSellerWords(sentence);
    }
  });

  it('has a sentence for every reason an allowlist entry is refused, naming the entry', () => {
    const missing = IP_ENTRY_PROBLEMS.filter((reason) => !ALLOWLIST_SENTENCES[reason]);
    expect(missing).toEqual([]);
    for (const reason of IP_ENTRY_PROBLEMS.filter((reason) => reason !== 'too_many')) {
      const sentence = sentenceOf(
        { field: 'allowed_ips[0]', message: reason, keyword: reason, params: { entry: '8.8.8.9/24' } },
        { label: 'Allowed IPs' },
      );
      expectSellerWords(sentence);
      expect(sentence).toContain('8.8.8.9/24');
      expect(sentence).not.toContain(reason);
    }
    expect(
      sentenceOf(
        {
          field: 'allowed_ips[0]',
          message: 'reserved_range',
          keyword: 'reserved_range',
          params: { entry: '10.1.0.0/16', range: 'private 10.0.0.0/8' },
        },
        { label: 'Allowed IPs' },
      ),
    ).toBe(
      "10.1.0.0/16 is in the private 10.0.0.0/8 range, which never calls the API from the internet; list your servers' public addresses.",
    );
  });

  it('words every webhook URL refusal without asking the seller to change how the service runs', () => {
    const missing = WEBHOOK_URL_REASONS.filter((reason) => !WEBHOOK_URL_SENTENCES[reason]);
    expect(missing).toEqual([]);
    for (const reason of WEBHOOK_URL_REASONS) {
      const sentence = sentenceOf(
        { field: 'url', message: 'url host is refused', keyword: 'format', params: { reason } },
        { label: 'Endpoint URL' },
      );
      expectSellerWords(sentence);
      expect(sentence).not.toMatch(/SDAPI_|setting|environment variable|started with/i);
    }
  });

  it('says the limits of the rules the forms meet, with the field label', () => {
    const name = { label: 'Name' };
    expect(
      sentenceOf(
        {
          field: 'name',
          message: 'must NOT have more than 100 characters',
          keyword: 'maxLength',
          params: { limit: 100 },
        },
        name,
      ),
    ).toBe('Name can have at most 100 characters.');
    expect(ruleSentence('maxLength', name, { limit: 100 })).toBe('Name can have at most 100 characters.');
    expect(ruleSentence('required', { label: 'Extra keys' })).toBe('Extra keys is required.');
    expect(ruleSentence('minimum', { label: 'Extra keys' }, { limit: 1 })).toBe(
      'Extra keys must be at least 1.',
    );
    expect(ruleSentence('type', { label: 'Extra keys' }, { type: 'integer' })).toBe(
      'Extra keys must be a whole number.',
    );
    expect(ruleSentence('minLength', { label: 'New password' }, { limit: 12, max: 200 })).toBe(
      'New password needs 12 to 200 characters.',
    );
    expect(
      sentenceOf(
        { field: 'countryCode', message: 'must match pattern "^[A-Z]{2}$"', keyword: 'pattern' },
        { label: 'Country', shape: 'two capital letters, such as DE' },
      ),
    ).toBe('Country must be two capital letters, such as DE.');
    expect(
      sentenceOf(
        { field: 'url', message: 'must match format "uri"', keyword: 'format', params: { format: 'uri' } },
        { label: 'Endpoint URL' },
      ),
    ).toBe('Endpoint URL must be a full web address, starting with https://.');
    expect(
      sentenceOf({ field: 'until', message: 'must be after since', keyword: 'range' }, { label: 'Until' }),
    ).toBe('Until must be after since.');
  });

  it('places each issue beside its field once, and keeps the others for the notice', () => {
    const error = refusal([
      {
        field: 'name',
        message: 'must NOT have more than 100 characters',
        keyword: 'maxLength',
        params: { limit: 100 },
      },
      {
        field: 'allowed_ips[0]',
        message: 'host_bits_set',
        keyword: 'host_bits_set',
        params: { entry: '8.8.8.9/24' },
      },
      {
        field: 'allowed_ips[1]',
        message: 'host_bits_set',
        keyword: 'host_bits_set',
        params: { entry: '8.8.8.9/24' },
      },
      { field: 'expiresAt', message: 'must be in the future', keyword: 'minimum' },
    ]);
    const errors = formErrorsOf(error, {
      name: { label: 'Name' },
      allowlist: { label: 'Allowed IPs', sentAs: ['allowedIps', 'allowed_ips'] },
    });
    expect(errors.invalid).toBe(true);
    expect(errors.of('name')).toEqual(['Name can have at most 100 characters.']);
    expect(errors.of('allowlist')).toHaveLength(1);
    expect(errors.of('allowlist')[0]).toContain('8.8.8.9/24 does not start its range');
    expect(errors.elsewhere).toEqual(['Expires at must be in the future.']);
    const other = formErrorsOf(failed('FORBIDDEN', 'No.'), {
      name: { label: 'Name' },
    });
    expect(other).toMatchObject({ invalid: false, elsewhere: [] });
    expect(other.of('name')).toEqual([]);
  });
});
