import { describe, expect, it } from 'vitest';
import { entryContains, ipMatchesAny, normalizeIp, parseIpEntry, validateAllowedIps } from './ip.js';

describe('parseIpEntry', () => {
  it.each([
    ['8.8.8.8', '8.8.8.8', 4],
    ['8.8.8.0/24', '8.8.8.0/24', 4],
    ['1.2.3.4/32', '1.2.3.4', 4],
    ['8.0.0.0/8', '8.0.0.0/8', 4],
    ['2001:4860:4860::8888', '2001:4860:4860::8888', 6],
    ['2001:4860:4860:0000:0000:0000:0000:8888', '2001:4860:4860::8888', 6],
    ['2A00:1450:4001:0:0:0:0:200E', '2a00:1450:4001::200e', 6],
    ['2001:4860:0:0:1:0:0:1', '2001:4860::1:0:0:1', 6],
    ['2001:4860:0:1:0:0:0:1', '2001:4860:0:1::1', 6],
    ['2001:4860::/32', '2001:4860::/32', 6],
    ['2001:4860::1/128', '2001:4860::1', 6],
    ['2a00::/8', '2a00::/8', 6],
    ['::ffff:8.8.8.8', '8.8.8.8', 4],
    ['::FFFF:808:808', '8.8.8.8', 4],
    ['::ffff:8.8.8.0/120', '8.8.8.0/24', 4],
    ['::ffff:8.8.8.8/128', '8.8.8.8', 4],
  ])('accepts %s as %s (IPv%i)', (raw, normalized, version) => {
    expect(parseIpEntry(raw)).toMatchObject({ ok: true, entry: { normalized, version } });
  });

  it.each([
    ['0.0.0.1', 'unspecified 0.0.0.0/8'],
    ['10.1.2.3', 'private 10.0.0.0/8'],
    ['172.31.255.255', 'private 172.16.0.0/12'],
    ['192.168.1.1', 'private 192.168.0.0/16'],
    ['127.0.0.1', 'loopback 127.0.0.0/8'],
    ['169.254.1.1', 'link-local 169.254.0.0/16'],
    ['100.64.0.1', 'carrier-grade NAT 100.64.0.0/10'],
    ['224.0.0.1', 'multicast 224.0.0.0/4'],
    ['192.0.2.1', 'documentation 192.0.2.0/24'],
    ['198.51.100.1', 'documentation 198.51.100.0/24'],
    ['203.0.113.9', 'documentation 203.0.113.0/24'],
    ['198.19.0.1', 'benchmark 198.18.0.0/15'],
    ['241.0.0.1', 'reserved 240.0.0.0/4'],
    ['255.255.255.255', 'reserved 240.0.0.0/4'],
    ['::', 'unspecified ::'],
    ['::1', 'loopback ::1'],
    ['fd00::1', 'unique local fc00::/7'],
    ['fe80::1', 'link-local fe80::/10'],
    ['ff02::1', 'multicast ff00::/8'],
    ['2001:db8::1', 'documentation 2001:db8::/32'],
    ['2001:2::1', 'benchmark 2001:2::/48'],
    ['::ffff:10.0.0.1', 'private 10.0.0.0/8'],
    ['::ffff:127.0.0.0/104', 'loopback 127.0.0.0/8'],
    ['::fffe:0:0/95', 'IPv4-mapped ::ffff:0:0/96'],
  ])('refuses %s inside %s', (raw, range) => {
    expect(parseIpEntry(raw)).toEqual({ ok: false, problem: 'reserved_range', range });
  });

  it.each([
    ['8.0.0.0/6', 'private 10.0.0.0/8'],
    ['192.0.0.0/16', 'documentation 192.0.2.0/24'],
    ['0.0.0.0/1', 'unspecified 0.0.0.0/8'],
    ['fc00::/6', 'unique local fc00::/7'],
    ['2001:d00::/24', 'documentation 2001:db8::/32'],
    ['2001::/24', 'benchmark 2001:2::/48'],
  ])('refuses a range %s that overlaps %s', (raw, range) => {
    expect(parseIpEntry(raw)).toEqual({ ok: false, problem: 'reserved_range', range });
  });

  it.each([
    ['0.0.0.0/0', 'prefix_zero'],
    ['8.8.8.8/0', 'prefix_zero'],
    ['::/0', 'prefix_zero'],
    ['::ffff:0.0.0.0/96', 'prefix_zero'],
    ['8.8.8.0/33', 'prefix_out_of_range'],
    ['2001:4860::/129', 'prefix_out_of_range'],
    ['::ffff:8.8.8.0/129', 'prefix_out_of_range'],
    ['8.8.8.9/24', 'host_bits_set'],
    ['2001:4860::1/32', 'host_bits_set'],
    ['::ffff:8.8.8.1/120', 'host_bits_set'],
    ['::ffff:8.8.8.8/64', 'host_bits_set'],
    ['8.8.8.0/024', 'invalid_literal'],
    ['8.8.8.0/+24', 'invalid_literal'],
    ['8.8.8.0/-1', 'invalid_literal'],
    ['8.8.8.0/', 'invalid_literal'],
    ['8.8.8.0/24/24', 'invalid_literal'],
    ['8.8.8.0/ 24', 'invalid_literal'],
    ['010.1.1.1', 'invalid_literal'],
    ['8.8.8.08', 'invalid_literal'],
    ['::ffff:010.1.1.1', 'invalid_literal'],
    ['8.8.8', 'invalid_literal'],
    ['8.8.8.256', 'invalid_literal'],
    ['2001:4860::1%eth0', 'invalid_literal'],
    ['2001:4860::1::2', 'invalid_literal'],
    ['2001:4860:00000::1', 'invalid_literal'],
    [' 8.8.8.8', 'invalid_literal'],
    ['8.8.8.8\n', 'invalid_literal'],
    ['', 'invalid_literal'],
    ['/24', 'invalid_literal'],
    ['example.com', 'invalid_literal'],
  ])('refuses %s as %s', (raw, problem) => {
    expect(parseIpEntry(raw)).toEqual({ ok: false, problem });
  });
});

describe('validateAllowedIps', () => {
  it('returns the normalized list in order', () => {
    expect(validateAllowedIps(['8.8.8.8', '::FFFF:1.1.1.1', '2001:4860:0::/48'])).toEqual({
      ok: true,
      normalized: ['8.8.8.8', '1.1.1.1', '2001:4860::/48'],
    });
  });

  it('names every bad entry by index, including duplicates after normalization', () => {
    expect(validateAllowedIps(['8.8.8.8', '10.0.0.1', '::ffff:8.8.8.8', 'nope'])).toEqual({
      ok: false,
      issues: [
        { index: 1, value: '10.0.0.1', problem: 'reserved_range', range: 'private 10.0.0.0/8' },
        { index: 2, value: '::ffff:8.8.8.8', problem: 'duplicate' },
        { index: 3, value: 'nope', problem: 'invalid_literal' },
      ],
    });
  });

  it('accepts 50 entries and refuses 51', () => {
    const entries = Array.from({ length: 51 }, (_, i) => `8.8.${i}.1`);
    expect(validateAllowedIps(entries.slice(0, 50)).ok).toBe(true);
    const result = validateAllowedIps(entries);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues).toEqual([{ index: -1, value: '51 entries', problem: 'too_many' }]);
  });
});

describe('normalizeIp', () => {
  it.each([
    ['8.8.4.4', '8.8.4.4'],
    ['::FFFF:8.8.4.4', '8.8.4.4'],
    ['2001:4860:0:0:0:0:0:1', '2001:4860::1'],
    ['10.0.0.1', '10.0.0.1'],
    ['::1', '::1'],
    ['0.0.0.0', '0.0.0.0'],
    ['255.255.255.255', '255.255.255.255'],
  ])('normalizes %s to %s', (raw, expected) => {
    expect(normalizeIp(raw)).toBe(expected);
  });

  it.each([
    'garbage',
    '',
    ' 8.8.8.8',
    '8.8.8.0/24',
    'fe80::1%eth0',
    '010.1.1.1',
    '1.2.3.04',
    '256.1.1.1',
    '8.8.8.8\n',
    '1.2.3',
  ])('refuses %j', (raw) => {
    expect(normalizeIp(raw)).toBeNull();
  });
});

describe('ipMatchesAny', () => {
  it('matches IPv4 clients inside an entry and not outside', () => {
    expect(ipMatchesAny('8.8.8.200', ['1.1.1.1', '8.8.8.0/24'])).toBe(true);
    expect(ipMatchesAny('8.8.9.1', ['1.1.1.1', '8.8.8.0/24'])).toBe(false);
    expect(ipMatchesAny('1.1.1.1', ['1.1.1.1'])).toBe(true);
    expect(ipMatchesAny('1.1.1.2', ['1.1.1.1'])).toBe(false);
  });

  it('matches IPv6 clients inside an entry and not outside', () => {
    expect(ipMatchesAny('2001:4860:ffff::abcd', ['2001:4860::/32'])).toBe(true);
    expect(ipMatchesAny('2001:4861::1', ['2001:4860::/32'])).toBe(false);
    expect(ipMatchesAny('2001:4860:0:0:0:0:0:1', ['2001:4860::1'])).toBe(true);
  });

  it('judges a mapped client as IPv4 and never crosses families', () => {
    expect(ipMatchesAny('::ffff:8.8.8.8', ['8.8.8.0/24'])).toBe(true);
    expect(ipMatchesAny('::808:808', ['8.8.8.0/24'])).toBe(false);
    expect(ipMatchesAny('8.8.8.8', ['::/1'])).toBe(false);
  });

  it('matches nothing for malformed clients or entries', () => {
    expect(ipMatchesAny('not-an-ip', ['8.8.8.8'])).toBe(false);
    expect(ipMatchesAny('8.8.8.8', ['not-an-entry'])).toBe(false);
    expect(ipMatchesAny('8.8.8.8', [])).toBe(false);
  });

  it('gives the same answers on repeated calls', () => {
    const entries = ['8.8.8.0/24', '2001:4860::/32'];
    for (let i = 0; i < 3; i++) {
      expect(ipMatchesAny('8.8.8.1', entries)).toBe(true);
      expect(ipMatchesAny('9.9.9.9', entries)).toBe(false);
    }
  });

  it('answers right for more addresses on one list than it remembers', () => {
    const entries = ['10.0.0.0/22'];
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 1_100; i++) {
        expect(ipMatchesAny(`10.0.${Math.floor(i / 256)}.${i % 256}`, entries)).toBe(i < 1_024);
      }
    }
  });
});

describe('entryContains', () => {
  it.each([
    ['8.8.0.0/16', '8.8.8.0/24', true],
    ['8.8.0.0/16', '8.8.0.0/16', true],
    ['8.8.8.0/24', '8.8.8.8', true],
    ['8.8.8.0/24', '8.8.0.0/16', false],
    ['8.8.8.0/24', '8.8.9.0/24', false],
    ['8.8.8.8', '8.8.8.0/24', false],
    ['2001:4860::/32', '2001:4860:1::/48', true],
    ['2001:4860::/32', '2001:4861::/48', false],
    ['2001:4860::/32', '8.8.8.8', false],
    ['8.8.8.0/24', '::808:808', false],
    ['bad', '8.8.8.8', false],
  ])('%s contains %s: %s', (outer, inner, expected) => {
    expect(entryContains(outer, inner)).toBe(expected);
  });
});
