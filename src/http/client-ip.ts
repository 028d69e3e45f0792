import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { normalizeIp } from '../lib/ip.js';

/**
 * Client address: the edge platform's forwarded-for header, then `x-real-ip`,
 * then the leftmost `x-forwarded-for`. Those headers are believed only when the direct peer
 * is a trusted proxy (SDAPI_TRUST_PROXY: `loopback` by default, `none`, `all`, or CIDRs);
 * otherwise the socket address is the client.
 */
export const EDGE_FORWARDED_HEADER = 'x-vercel-forwarded-for';

export type ProxyTrust = (peer: string) => boolean;

export function proxyTrustFrom(setting: string): ProxyTrust {
  const value = setting.trim().toLowerCase();
  if (value === 'all') return () => true;
  if (value === 'none' || value === '') return () => false;
  const list = new BlockList();
  for (const entry of value.split(',').map((e) => e.trim())) {
    if (entry === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
      continue;
    }
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    if (family === 0) throw new Error(`SDAPI_TRUST_PROXY: '${entry}' is not an address or CIDR`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  const trustsLoopback = value.split(',').some((e) => e.trim() === 'loopback');
  return (peer) => {
    if (trustsLoopback && (peer === '127.0.0.1' || peer === '::1')) return true;
    const family = isIP(peer);
    return family !== 0 && list.check(peer, family === 4 ? 'ipv4' : 'ipv6');
  };
}

const firstHeader = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

/** The leftmost entry of a comma-separated header, trimmed (no array built for one entry). */
function leftmostListed(value: string): string {
  const comma = value.indexOf(',');
  return (comma < 0 ? value : value.slice(0, comma)).trim();
}

/** The caller's address, normalized, or null when it cannot be determined. */
export function resolveClientIp(request: FastifyRequest, trusts: ProxyTrust): string | null {
  const peer = normalizeIp(request.socket.remoteAddress ?? '') ?? null;
  if (peer === null || !trusts(peer)) return peer;
  const headers = request.headers;
  const edge = firstHeader(headers[EDGE_FORWARDED_HEADER]);
  if (edge !== undefined) return normalizeIp(leftmostListed(edge));
  const real = firstHeader(headers['x-real-ip']);
  if (real !== undefined) return normalizeIp(real.trim());
  const forwarded = firstHeader(headers['x-forwarded-for']);
  if (forwarded !== undefined) return normalizeIp(leftmostListed(forwarded));
  return peer;
}
