import { createHmac, timingSafeEqual } from 'node:crypto';

/** The envelope of every delivery (docs/events.md). */
export interface WebhookEvent<Data = Record<string, unknown>> {
  eventId: string;
  eventType: string;
  eventVersion: number;
  createdAt: string;
  data: Data;
}

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Reject a delivery whose timestamp is further than this from now (default 300 s). */
  toleranceSeconds?: number;
  /** The clock to judge the timestamp by (default: Date.now()). */
  nowMs?: number;
}

const SECRET_PREFIX = 'whsec_';

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found[0] : found;
}

const sameText = (a: string, b: string) => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
};

/** `X-Service-Signature: t=<unix>,v1=<hex>[,v1=…]`: HMAC-SHA256 of `{t}.{body}`, keyed with the secret as text. */
function serviceScheme(value: string, body: string, secrets: string[]) {
  const parts = value.split(',');
  const t = parts.find((p) => p.startsWith('t='))?.slice(2) ?? '';
  const given = parts.filter((p) => p.startsWith('v1=')).map((p) => p.slice(3));
  const matches = secrets.some((secret) => {
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    return given.some((g) => sameText(g, expected));
  });
  return { timestamp: Number(t), matches };
}

/** Standard Webhooks: HMAC-SHA256 of `{id}.{timestamp}.{body}`, keyed with base64 after `whsec_`. */
function standardScheme(headers: WebhookHeaders, value: string, body: string, secrets: string[]) {
  const id = header(headers, 'webhook-id') ?? '';
  const t = header(headers, 'webhook-timestamp') ?? '';
  const given = value.split(' ').flatMap((p) => (p.startsWith('v1,') ? [p.slice(3)] : []));
  const matches = secrets.some((secret) => {
    const key = Buffer.from(
      secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
      'base64',
    );
    const expected = createHmac('sha256', key).update(`${id}.${t}.${body}`).digest('base64');
    return given.some((g) => sameText(g, expected));
  });
  return { timestamp: Number(t), matches };
}

/**
 * Verifies a delivery against its raw body (the exact bytes received, before any JSON parsing)
 * and returns the event. Accepts either scheme the service signs with; pass the old and the new
 * secret as an array during a rotation. Throws WebhookVerificationError otherwise.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): WebhookEvent {
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  const service = header(headers, 'x-service-signature');
  const standard = header(headers, 'webhook-signature');
  const checked = service
    ? serviceScheme(service, body, secrets)
    : standard
      ? standardScheme(headers, standard, body, secrets)
      : null;
  if (!checked) throw new WebhookVerificationError('no X-Service-Signature or webhook-signature header');
  if (!checked.matches) throw new WebhookVerificationError('no signature matches the secret');
  const nowSeconds = (options.nowMs ?? Date.now()) / 1000;
  const tolerance = options.toleranceSeconds ?? 300;
  if (!Number.isFinite(checked.timestamp) || Math.abs(nowSeconds - checked.timestamp) > tolerance) {
    throw new WebhookVerificationError(`timestamp outside the ${tolerance} s tolerance`);
  }
  return JSON.parse(body) as WebhookEvent;
}
