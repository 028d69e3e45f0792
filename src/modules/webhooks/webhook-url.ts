import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { fail } from '../../http/errors.js';
import { parseIpEntry } from '../../lib/ip.js';

/**
 * URL rules of webhook endpoints (docs/events.md): `https://` only, no credentials, and no
 * loopback, private, link-local, CGNAT, ULA, multicast, documentation or metadata address,
 * judged on a literal host at creation and on every address DNS returns at delivery, where the
 * connection goes only to an address that passed (so DNS rebinding cannot reach the inside).
 * `insecure` (SDAPI_ALLOW_INSECURE_WEBHOOKS=1, development and tests) admits `http://` and
 * loopback, never other internal ranges.
 */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data']);
const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * Why a webhook URL is refused, in `params.reason` of its issue: a client words each for the
 * seller (the console has a sentence for every one).
 */
export const WEBHOOK_URL_REASONS = [
  'not_absolute',
  'https_required',
  'credentials',
  'internal_host',
  'this_machine',
  'reserved_address',
] as const;
type WebhookUrlReason = (typeof WEBHOOK_URL_REASONS)[number];

const invalid = (message: string, reason: WebhookUrlReason) =>
  fail('VALIDATION_FAILED', message, {
    issues: [{ field: 'url', in: 'body', message, keyword: 'format', params: { reason } }],
  });

/** What a developer receiving webhooks on their own machine needs to know. */
export const LOCAL_RECEIVER_HINT =
  'To receive webhooks on a local http:// or loopback URL, run your development service with SDAPI_ALLOW_INSECURE_WEBHOOKS=1 (never in production); otherwise expose the receiver through an https:// tunnel.';

const localRefusal = (message: string, reason: WebhookUrlReason) =>
  invalid(message, reason).withHint(LOCAL_RECEIVER_HINT);

/** Why an address may not receive webhooks, or null when it may. */
export function refusedAddress(address: string, insecure: boolean): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  if (insecure && LOOPBACK.test(bare)) return null;
  const parsed = parseIpEntry(bare);
  if (parsed.ok) return null;
  return parsed.problem === 'reserved_range'
    ? `${bare} is in a ${parsed.range} range`
    : `${bare} is not an address`;
}

/** Validates a webhook URL at creation or update; returns it normalised. */
export function checkWebhookUrl(raw: string, insecure: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('url must be an absolute URL.', 'not_absolute');
  }
  if (url.protocol !== 'https:' && !(insecure && url.protocol === 'http:'))
    throw localRefusal(
      'url must use https:// (an http:// receiver is admitted only by a service started with SDAPI_ALLOW_INSECURE_WEBHOOKS=1).',
      'https_required',
    );
  if (url.username || url.password) throw invalid('url must not carry credentials.', 'credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (METADATA_HOSTS.has(host))
    throw invalid(`url host ${host} is not reachable from the internet.`, 'internal_host');
  if (!insecure && (host === 'localhost' || host.endsWith('.localhost') || LOOPBACK.test(host)))
    throw localRefusal(
      `url host ${host} is this machine (admitted only with SDAPI_ALLOW_INSECURE_WEBHOOKS=1 on the service).`,
      'this_machine',
    );
  if (isIP(host)) {
    const refused = refusedAddress(host, insecure);
    if (refused) throw invalid(`url host ${refused}.`, 'reserved_address');
  }
  url.hash = '';
  return url.toString();
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for the HTTP request: resolves every address, keeps those that pass and connects
 * to the first of them; when none passes the request fails before any connection is opened.
 */
export function guardedLookup(insecure: boolean) {
  return (hostname: string, options: object, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as LookupAddress[];
      const allowed = list.filter((a) => refusedAddress(a.address, insecure) === null);
      if (allowed.length === 0) {
        const why = list.map((a) => refusedAddress(a.address, insecure)).join('; ');
        const refusal = Object.assign(
          new Error(`refused: ${hostname} resolves only to disallowed addresses (${why})`),
          {
            code: 'EADDRREFUSED',
          },
        );
        return callback(refusal, '');
      }
      if ((options as { all?: boolean }).all) return callback(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}
