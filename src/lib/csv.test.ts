import { describe, expect, it } from 'vitest';
import { csvField, csvRecord } from './csv.mjs';

describe('RFC 4180 CSV', () => {
  it('quotes fields with commas, quotes and line breaks and doubles inner quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField('lf\nonly')).toBe('"lf\nonly"');
  });

  it('writes empty fields for null and ends a record with CRLF', () => {
    expect(csvRecord(['a', null, 3, false, undefined])).toBe('a,,3,false,\r\n');
  });
});
