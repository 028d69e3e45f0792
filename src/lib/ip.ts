import { isIPv4, isIPv6 } from 'node:net';
import { memoPerObject } from './memo.js';

/** Every reason an allowlist entry is refused; the console has a sentence for each. */
export const IP_ENTRY_PROBLEMS = [
  'invalid_literal',
  'prefix_zero',
  'prefix_out_of_range',
  'host_bits_set',
  'reserved_range',
  'too_many',
  'duplicate',
] as const;

export type IpEntryProblem = (typeof IP_ENTRY_PROBLEMS)[number];

type IpVersion = 4 | 6;

interface Cidr {
  version: IpVersion;
  network: bigint;
  prefix: number;
}

export interface ParsedIpEntry extends Cidr {
  normalized: string;
}

export interface AllowedIpsIssue {
  index: number;
  value: string;
  problem: IpEntryProblem;
  range?: string;
}

type Address = { version: IpVersion; value: bigint; fromMapped: boolean };
type ReservedRange = Cidr & { label: string };

const MAX_ENTRIES = 50;
const MAPPED_PREFIX_BITS = 96;
const MAPPED_BLOCK = 0xffffn << 32n;
const widthOf = (version: IpVersion) => (version === 4 ? 32 : 128);

function maskOf(version: IpVersion, prefix: number): bigint {
  const width = BigInt(widthOf(version));
  return ((1n << width) - 1n) ^ ((1n << (width - BigInt(prefix))) - 1n);
}

function parseV4(text: string): bigint | null {
  if (!isIPv4(text)) return null;
  const octets = text.split('.');
  if (octets.some((octet) => octet.length > 1 && octet.startsWith('0'))) return null;
  return octets.reduce((acc, octet) => (acc << 8n) | BigInt(octet), 0n);
}

function parseV6(text: string): bigint | null {
  if (text.includes('%') || !isIPv6(text)) return null;
  let literal = text;
  const lastColon = literal.lastIndexOf(':');
  const tail = literal.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseV4(tail);
    if (v4 === null) return null;
    literal = `${literal.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = literal.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeroGroups = rest === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(zeroGroups).fill('0'), ...tailGroups];
  if (groups.length !== 8) return null;
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(`0x${group}`), 0n);
}

function parseAddress(text: string): Address | null {
  const v4 = parseV4(text);
  if (v4 !== null) return { version: 4, value: v4, fromMapped: false };
  const v6 = parseV6(text);
  if (v6 === null) return null;
  if (v6 >> 32n === 0xffffn) return { version: 4, value: v6 - MAPPED_BLOCK, fromMapped: true };
  return { version: 6, value: v6, fromMapped: false };
}

const hostCidr = (address: Address): Cidr => ({
  version: address.version,
  network: address.value,
  prefix: widthOf(address.version),
});

function formatV4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** RFC 5952: lower case, no leading zeros, the first longest run of 2+ zero groups as `::`. */
function formatV6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt((7 - i) * 16)) & 0xffffn));
  let runStart = -1;
  let runLength = 1;
  for (let start = 0; start < 8; start++) {
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > runLength) {
      runStart = start;
      runLength = end - start;
    }
    start = Math.max(start, end - 1);
  }
  const hex = groups.map((group) => group.toString(16));
  if (runStart < 0) return hex.join(':');
  return `${hex.slice(0, runStart).join(':')}::${hex.slice(runStart + runLength).join(':')}`;
}

function formatCidr({ version, network, prefix }: Cidr): string {
  const address = version === 4 ? formatV4(network) : formatV6(network);
  return prefix === widthOf(version) ? address : `${address}/${prefix}`;
}

/**
 * Syntax and arithmetic only, no reserved-range rule. Host bits set (`8.8.8.9/24`) are refused
 * rather than masked away, so the stored entry is exactly what the seller typed.
 */
function parseCidr(raw: string): { ok: true; cidr: Cidr } | { ok: false; problem: IpEntryProblem } {
  const [addressText = '', prefixText, ...extra] = raw.split('/');
  const address = parseAddress(addressText);
  if (!address || extra.length > 0) return { ok: false, problem: 'invalid_literal' };
  if (prefixText === undefined) return { ok: true, cidr: hostCidr(address) };
  if (!/^(0|[1-9]\d*)$/.test(prefixText)) return { ok: false, problem: 'invalid_literal' };
  const written = Number(prefixText);
  if (written === 0) return { ok: false, problem: 'prefix_zero' };
  const writtenAsV6 = address.version === 6 || address.fromMapped;
  if (written > (writtenAsV6 ? 128 : 32)) return { ok: false, problem: 'prefix_out_of_range' };
  let cidr: Cidr = { version: address.version, network: address.value, prefix: written };
  if (address.fromMapped) {
    if (written === MAPPED_PREFIX_BITS) return { ok: false, problem: 'prefix_zero' };
    cidr =
      written > MAPPED_PREFIX_BITS
        ? { version: 4, network: address.value, prefix: written - MAPPED_PREFIX_BITS }
        : { version: 6, network: address.value + MAPPED_BLOCK, prefix: written };
  }
  if ((cidr.network & ~maskOf(cidr.version, cidr.prefix)) !== 0n)
    return { ok: false, problem: 'host_bits_set' };
  return { ok: true, cidr };
}

function reserved(cidr: string, label: string): ReservedRange {
  const parsed = parseCidr(cidr);
  if (!parsed.ok) throw new Error(`Invalid built-in range ${cidr}`);
  return { ...parsed.cidr, label: `${label} ${cidr}` };
}

const RESERVED_RANGES: readonly ReservedRange[] = [
  reserved('0.0.0.0/8', 'unspecified'),
  reserved('10.0.0.0/8', 'private'),
  reserved('100.64.0.0/10', 'carrier-grade NAT'),
  reserved('127.0.0.0/8', 'loopback'),
  reserved('169.254.0.0/16', 'link-local'),
  reserved('172.16.0.0/12', 'private'),
  reserved('192.0.2.0/24', 'documentation'),
  reserved('192.168.0.0/16', 'private'),
  reserved('198.18.0.0/15', 'benchmark'),
  reserved('198.51.100.0/24', 'documentation'),
  reserved('203.0.113.0/24', 'documentation'),
  reserved('224.0.0.0/4', 'multicast'),
  reserved('240.0.0.0/4', 'reserved'),
  reserved('255.255.255.255', 'broadcast'),
  reserved('::', 'unspecified'),
  reserved('::1', 'loopback'),
  { version: 6, network: MAPPED_BLOCK, prefix: MAPPED_PREFIX_BITS, label: 'IPv4-mapped ::ffff:0:0/96' },
  reserved('fc00::/7', 'unique local'),
  reserved('fe80::/10', 'link-local'),
  reserved('ff00::/8', 'multicast'),
  reserved('2001:db8::/32', 'documentation'),
  reserved('2001:2::/48', 'benchmark'),
];

function overlaps(a: Cidr, b: Cidr): boolean {
  if (a.version !== b.version) return false;
  const mask = maskOf(a.version, Math.min(a.prefix, b.prefix));
  return (a.network & mask) === (b.network & mask);
}

function covers(outer: Cidr, inner: Cidr): boolean {
  return outer.prefix <= inner.prefix && overlaps(outer, inner);
}

const reservedRangeOf = (cidr: Cidr) => RESERVED_RANGES.find((range) => overlaps(range, cidr));

export function parseIpEntry(
  raw: string,
): { ok: true; entry: ParsedIpEntry } | { ok: false; problem: IpEntryProblem; range?: string } {
  const parsed = parseCidr(raw);
  if (!parsed.ok) return parsed;
  const hit = reservedRangeOf(parsed.cidr);
  if (hit) return { ok: false, problem: 'reserved_range', range: hit.label };
  return { ok: true, entry: { ...parsed.cidr, normalized: formatCidr(parsed.cidr) } };
}

export function validateAllowedIps(
  list: readonly string[],
): { ok: true; normalized: string[] } | { ok: false; issues: AllowedIpsIssue[] } {
  if (list.length > MAX_ENTRIES) {
    return { ok: false, issues: [{ index: -1, value: `${list.length} entries`, problem: 'too_many' }] };
  }
  const issues: AllowedIpsIssue[] = [];
  const normalized: string[] = [];
  const seen = new Set<string>();
  list.forEach((value, index) => {
    const parsed = parseIpEntry(value);
    if (!parsed.ok) {
      const { problem, range } = parsed;
      issues.push(range === undefined ? { index, value, problem } : { index, value, problem, range });
    } else if (seen.has(parsed.entry.normalized)) {
      issues.push({ index, value, problem: 'duplicate' });
    } else {
      seen.add(parsed.entry.normalized);
      normalized.push(parsed.entry.normalized);
    }
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, normalized };
}

/** Dotted IPv4 as an address is already written (no leading zeros): the common case, answered as is. */
const CANONICAL_V4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

export function normalizeIp(raw: string): string | null {
  if (CANONICAL_V4.test(raw)) return raw;
  const address = parseAddress(raw);
  return address ? formatCidr(hostCidr(address)) : null;
}

interface CompiledEntry {
  cidr: Cidr;
  mask: bigint;
}

/** Entries are parsed once per process; the bound only guards against unbounded distinct strings. */
const COMPILED_CACHE_LIMIT = 10_000;
const compiledEntries = new Map<string, CompiledEntry | null>();

function compile(entry: string): CompiledEntry | null {
  let compiled = compiledEntries.get(entry);
  if (compiled === undefined) {
    const parsed = parseCidr(entry);
    compiled = parsed.ok
      ? { cidr: parsed.cidr, mask: maskOf(parsed.cidr.version, parsed.cidr.prefix) }
      : null;
    if (compiledEntries.size >= COMPILED_CACHE_LIMIT) compiledEntries.clear();
    compiledEntries.set(entry, compiled);
  }
  return compiled;
}

const verdicts = memoPerObject(
  (entries: readonly string[], clientIp: string) => matchesAnyEntry(clientIp, entries),
  1_024,
);

/**
 * Is the address inside any entry? Remembered per allowlist array (a cached principal keeps
 * one) and address, so a repeat caller costs a lookup.
 */
export const ipMatchesAny = (clientIp: string, entries: readonly string[]): boolean =>
  verdicts(entries, clientIp);

function matchesAnyEntry(clientIp: string, entries: readonly string[]): boolean {
  const client = parseAddress(clientIp);
  if (!client) return false;
  for (const entry of entries) {
    const compiled = compile(entry);
    if (
      compiled?.cidr.version === client.version &&
      (client.value & compiled.mask) === compiled.cidr.network
    ) {
      return true;
    }
  }
  return false;
}

export function entryContains(outer: string, inner: string): boolean {
  const outerEntry = compile(outer);
  const innerEntry = compile(inner);
  return outerEntry !== null && innerEntry !== null && covers(outerEntry.cidr, innerEntry.cidr);
}
