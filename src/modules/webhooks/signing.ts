import { createHmac, randomBytes } from 'node:crypto';

/**
 * One secret, two signature schemes (docs/events.md):
 * - `X-Service-Signature: t=<unix>,v1=<hex>`: HMAC-SHA256 over `{t}.{rawBody}`, keyed with the
 *   secret string exactly as the API returned it (its UTF-8 bytes, `whsec_` prefix included);
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`):
 *   HMAC-SHA256 over `{id}.{timestamp}.{rawBody}`, keyed with the base64-decoded part after
 *   `whsec_`, as that specification encodes secrets.
 * During a rotation overlap both headers carry one signature per live secret, newest first.
 */
export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export const newWebhookSecret = (): string =>
  `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;

const standardKeyOf = (secret: string) => Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');

export function serviceSignature(secret: string, unixSeconds: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
}

export function standardSignature(secret: string, id: string, unixSeconds: number, rawBody: string): string {
  return createHmac('sha256', standardKeyOf(secret))
    .update(`${id}.${unixSeconds}.${rawBody}`)
    .digest('base64');
}

/** The signature headers of one delivery, signed with every live secret (newest first). */
export function signatureHeaders(
  secrets: readonly string[],
  eventId: string,
  unixSeconds: number,
  rawBody: string,
): Record<string, string> {
  const v1 = secrets.map((s) => `v1=${serviceSignature(s, unixSeconds, rawBody)}`);
  const standard = secrets.map((s) => `v1,${standardSignature(s, eventId, unixSeconds, rawBody)}`);
  return {
    'x-service-signature': [`t=${unixSeconds}`, ...v1].join(','),
    'x-service-event-id': eventId,
    'webhook-id': eventId,
    'webhook-timestamp': String(unixSeconds),
    'webhook-signature': standard.join(' '),
  };
}
