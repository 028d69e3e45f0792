import { isIPv4, isIPv6 } from 'node:net';

/**
 * IP literals, CIDR ranges and the allowlist rules of SPEC 5.6, with bigint arithmetic.
 * An entry with host bits set (`8.8.8.9/24`) is refused rather than silently widened, so
 * what the seller typed is exactly what is enforced.
 */
export type IpEntryProblem =
  | 'invalid_literal'
  | 'prefix_zero'
  | 'prefix_out_of_range'
  | 'host_bits_set'
  | 'reserved_range'
  | 'too_many'
  | 'duplicate';

export interface ParsedIpEntry {
  normalized: string;
  version: 4 | 6;
  network: bigint;
  prefix: number;
}

interface Range {
  version: 4 | 6;
  network: bigint;
  prefix: number;
  label: string;
}

const MAX_ENTRIES = 50;
const bits = (version: 4 | 6) => (version === 4 ? 32 : 128);

function parseV4(text: string): bigint | null {
  if (!isIPv4(text)) return null;
  const parts = text.split('.');
  if (parts.some((p) => p.length > 1 && p.startsWith('0'))) return null;
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(Number(p)), 0n);
}

function parseV6(text: string): bigint | null {
  if (text.includes('%') || !isIPv6(text)) return null;
  let literal = text.toLowerCase();
  const lastColon = literal.lastIndexOf(':');
  const tail = literal.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseV4(tail);
    if (v4 === null) return null;
    literal = `${literal.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = literal.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = rest ? rest.split(':') : [];
  const fill = rest === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array(fill).fill('0'), ...tailGroups];
  if (groups.length !== 8) return null;
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
}

const MAPPED_PREFIX = 0xffffn << 32n;
const isMapped = (value: bigint) => value >> 32n === 0xffffn;

function formatV4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** RFC 5952: lower case, leading zeros dropped, the longest run of two or more zero groups as `::`. */
function formatV6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt((7 - i) * 16)) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j > i ? j - 1 : i;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** One address to {version, value}; IPv4-mapped IPv6 becomes IPv4. */
function parseAddress(text: string): { version: 4 | 6; value: bigint } | null {
  const v4 = parseV4(text);
  if (v4 !== null) return { version: 4, value: v4 };
  const v6 = parseV6(text);
  if (v6 === null) return null;
  if (isMapped(v6)) return { version: 4, value: v6 - MAPPED_PREFIX };
  return { version: 6, value: v6 };
}

const format = (version: 4 | 6, value: bigint) => (version === 4 ? formatV4(value) : formatV6(value));

function range(cidr: string, label: string): Range {
  const [address = '', prefix = ''] = cidr.split('/');
  const parsed = parseAddress(address);
  if (!parsed) throw new Error(`bad built-in range ${cidr}`);
  return { version: parsed.version, network: parsed.value, prefix: Number(prefix), label };
}

const RESERVED: Range[] = [
  range('0.0.0.0/8', 'unspecified'),
  range('10.0.0.0/8', 'private (RFC 1918)'),
  range('100.64.0.0/10', 'carrier-grade NAT'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private (RFC 1918)'),
  range('192.0.2.0/24', 'documentation'),
  range('192.168.0.0/16', 'private (RFC 1918)'),
  range('198.18.0.0/15', 'benchmark'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'),
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('fc00::/7', 'unique local'),
  range('fe80::/10', 'link-local'),
  range('ff00::/8', 'multicast'),
  range('2001:db8::/32', 'documentation'),
  range('2001:2::/48', 'benchmark'),
];

const maskOf = (version: 4 | 6, prefix: number) => {
  const width = BigInt(bits(version));
  return ((1n << width) - 1n) ^ ((1n << (width - BigInt(prefix))) - 1n);
};

/** Do two ranges share any address? */
function overlaps(a: Range | ParsedIpEntry, b: Range | ParsedIpEntry): boolean {
  if (a.version !== b.version) return false;
  const prefix = Math.min(a.prefix, b.prefix);
  const mask = maskOf(a.version, prefix);
  return (a.network & mask) === (b.network & mask);
}

function contains(outer: ParsedIpEntry, inner: ParsedIpEntry): boolean {
  return outer.version === inner.version && outer.prefix <= inner.prefix && overlaps(outer, inner);
}

export function parseIpEntry(
  raw: string,
): { ok: true; entry: ParsedIpEntry } | { ok: false; problem: IpEntryProblem; range?: string } {
  if (typeof raw !== 'string' || raw !== raw.trim() || raw === '')
    return { ok: false, problem: 'invalid_literal' };
  const slash = raw.indexOf('/');
  const address = parseAddress(slash < 0 ? raw : raw.slice(0, slash));
  if (!address) return { ok: false, problem: 'invalid_literal' };
  let prefix = bits(address.version);
  if (slash >= 0) {
    const text = raw.slice(slash + 1);
    if (!/^(0|[1-9]\d{0,2})$/.test(text)) return { ok: false, problem: 'prefix_out_of_range' };
    if (text === '0') return { ok: false, problem: 'prefix_zero' };
    const wasMappedV6 = address.version === 4 && !isIPv4(raw.slice(0, slash));
    prefix = Number(text) - (wasMappedV6 ? 96 : 0);
    if (prefix < 1 || prefix > bits(address.version)) return { ok: false, problem: 'prefix_out_of_range' };
    if ((address.value & ~maskOf(address.version, prefix)) !== 0n)
      return { ok: false, problem: 'host_bits_set' };
  }
  const entry: ParsedIpEntry = {
    normalized:
      prefix === bits(address.version)
        ? format(address.version, address.value)
        : `${format(address.version, address.value)}/${prefix}`,
    version: address.version,
    network: address.value,
    prefix,
  };
  const reserved = RESERVED.find((r) => overlaps(r, entry));
  if (reserved) return { ok: false, problem: 'reserved_range', range: reserved.label };
  return { ok: true, entry };
}

export function validateAllowedIps(
  list: readonly string[],
):
  | { ok: true; normalized: string[] }
  | { ok: false; issues: { index: number; value: string; problem: IpEntryProblem; range?: string }[] } {
  if (list.length > MAX_ENTRIES)
    return { ok: false, issues: [{ index: -1, value: '', problem: 'too_many' }] };
  const issues: { index: number; value: string; problem: IpEntryProblem; range?: string }[] = [];
  const seen = new Set<string>();
  const normalized: string[] = [];
  list.forEach((value, index) => {
    const parsed = parseIpEntry(value);
    if (!parsed.ok) {
      issues.push({
        index,
        value,
        problem: parsed.problem,
        ...(parsed.range ? { range: parsed.range } : {}),
      });
    } else if (seen.has(parsed.entry.normalized)) {
      issues.push({ index, value, problem: 'duplicate' });
    } else {
      seen.add(parsed.entry.normalized);
      normalized.push(parsed.entry.normalized);
    }
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, normalized };
}

/** A single client address, normalized (IPv4-mapped becomes IPv4); null when not an address. */
export function normalizeIp(raw: string): string | null {
  if (isIPv4(raw) && !/(^|\.)0\d/.test(raw)) return raw;
  const address = parseAddress(raw.trim());
  return address ? format(address.version, address.value) : null;
}

const compiled = new Map<string, ParsedIpEntry | null>();

function compiledEntry(entry: string): ParsedIpEntry | null {
  let parsed = compiled.get(entry);
  if (parsed === undefined) {
    const result = parseIpEntry(entry);
    parsed = result.ok ? result.entry : null;
    if (compiled.size > 100_000) compiled.clear();
    compiled.set(entry, parsed);
  }
  return parsed;
}

/** Is the client inside any of the (already validated) entries? Entries are parsed once and cached. */
const verdicts = new Map<string, boolean>();

export function ipMatchesAny(clientIp: string, entries: readonly string[]): boolean {
  const key = `${clientIp}|${entries.join(',')}`;
  const known = verdicts.get(key);
  if (known !== undefined) return known;
  const verdict = matchesAny(clientIp, entries);
  if (verdicts.size > 10_000) verdicts.clear();
  verdicts.set(key, verdict);
  return verdict;
}

function matchesAny(clientIp: string, entries: readonly string[]): boolean {
  const address = parseAddress(clientIp);
  if (!address) return false;
  const client: ParsedIpEntry = {
    normalized: '',
    version: address.version,
    network: address.value,
    prefix: bits(address.version),
  };
  return entries.some((entry) => {
    const parsed = compiledEntry(entry);
    return parsed !== null && contains(parsed, client);
  });
}

/** Does `outer` cover every address of `inner`? */
export function entryContains(outer: string, inner: string): boolean {
  const a = compiledEntry(outer);
  const b = compiledEntry(inner);
  return a !== null && b !== null && contains(a, b);
}
