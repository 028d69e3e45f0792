import { describe, expect, it } from 'vitest';
import { entryContains, ipMatchesAny, normalizeIp, parseIpEntry, validateAllowedIps } from './ip.js';

describe('allowlist entries', () => {
  it.each([
    ['8.8.8.8', '8.8.8.8'],
    ['8.8.8.0/24', '8.8.8.0/24'],
    ['2001:4860:4860::8888', '2001:4860:4860::8888'],
    ['2001:4860:4860:0:0:0:0:8888', '2001:4860:4860::8888'],
    ['2001:4860::/32', '2001:4860::/32'],
    ['2001:4860::/128', '2001:4860::'],
    ['2A00:1450::1', '2a00:1450::1'],
    ['::ffff:8.8.8.8', '8.8.8.8'],
    ['::ffff:8.8.8.0/120', '8.8.8.0/24'],
    ['1.2.3.4/32', '1.2.3.4'],
  ])('accepts %s as %s', (raw, normalized) => {
    const parsed = parseIpEntry(raw);
    expect(parsed.ok && parsed.entry.normalized).toBe(normalized);
  });

  it.each([
    ['10.1.2.3', 'reserved_range'],
    ['172.16.0.1', 'reserved_range'],
    ['192.168.1.1', 'reserved_range'],
    ['127.0.0.1', 'reserved_range'],
    ['169.254.1.1', 'reserved_range'],
    ['100.64.0.1', 'reserved_range'],
    ['224.0.0.1', 'reserved_range'],
    ['192.0.2.1', 'reserved_range'],
    ['198.51.100.1', 'reserved_range'],
    ['203.0.113.9', 'reserved_range'],
    ['198.18.0.1', 'reserved_range'],
    ['::1', 'reserved_range'],
    ['fd00::1', 'reserved_range'],
    ['fe80::1', 'reserved_range'],
    ['ff02::1', 'reserved_range'],
    ['2001:db8::1', 'reserved_range'],
    ['2001:2::1', 'reserved_range'],
    ['::ffff:10.0.0.1', 'reserved_range'],
    ['0.0.0.0/1', 'reserved_range'],
    ['0.0.0.0/0', 'prefix_zero'],
    ['::/0', 'prefix_zero'],
    ['8.8.8.0/33', 'prefix_out_of_range'],
    ['2001:4860::/129', 'prefix_out_of_range'],
    ['8.8.8.0/024', 'prefix_out_of_range'],
    ['8.8.8.9/24', 'host_bits_set'],
    ['008.8.8.8', 'invalid_literal'],
    ['8.8.8', 'invalid_literal'],
    ['fe80::1%eth0', 'invalid_literal'],
    [' 8.8.8.8', 'invalid_literal'],
    ['', 'invalid_literal'],
    ['example.com', 'invalid_literal'],
  ])('refuses %s (%s)', (raw, problem) => {
    const parsed = parseIpEntry(raw);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problem).toBe(problem);
  });

  it('validates lists: normalizes, and names each bad, duplicate or excess entry', () => {
    expect(validateAllowedIps(['8.8.8.8', '::FFFF:1.1.1.1'])).toEqual({
      ok: true,
      normalized: ['8.8.8.8', '1.1.1.1'],
    });
    const bad = validateAllowedIps(['8.8.8.8', '10.0.0.1', '8.8.8.8']);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.issues.map((i) => [i.index, i.problem])).toEqual([
      [1, 'reserved_range'],
      [2, 'duplicate'],
    ]);
    const many = validateAllowedIps(Array.from({ length: 51 }, (_, i) => `8.8.${i}.1`));
    expect(!many.ok && many.issues[0]?.problem).toBe('too_many');
  });
});

describe('matching and containment', () => {
  it('matches addresses inside entries of their own family only', () => {
    expect(ipMatchesAny('8.8.8.200', ['8.8.8.0/24'])).toBe(true);
    expect(ipMatchesAny('8.8.9.1', ['8.8.8.0/24'])).toBe(false);
    expect(ipMatchesAny('2001:4860::abcd', ['2001:4860::/32'])).toBe(true);
    expect(ipMatchesAny('2001:4861::1', ['2001:4860::/32'])).toBe(false);
    expect(ipMatchesAny('::ffff:8.8.8.8', ['8.8.8.8'])).toBe(true);
    expect(ipMatchesAny('not-an-ip', ['8.8.8.8'])).toBe(false);
  });

  it('tells whether one entry lies inside another', () => {
    expect(entryContains('8.8.0.0/16', '8.8.8.0/24')).toBe(true);
    expect(entryContains('8.8.8.0/24', '8.8.0.0/16')).toBe(false);
    expect(entryContains('8.8.8.0/24', '8.8.8.8')).toBe(true);
    expect(entryContains('2001:4860::/32', '8.8.8.8')).toBe(false);
  });

  it('normalizes client addresses', () => {
    expect(normalizeIp('::FFFF:8.8.4.4')).toBe('8.8.4.4');
    expect(normalizeIp('2001:4860:0:0:0:0:0:1')).toBe('2001:4860::1');
    expect(normalizeIp('garbage')).toBeNull();
  });
});
