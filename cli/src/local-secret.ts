import { createHash, createHmac } from 'node:crypto';

/** Bumping the label gives every key a new local secret; keep it fixed. */
const LABEL = 'sdapi-seller listen: local webhook signing secret v1';

/**
 * The secret `listen` signs with: HMAC-SHA256 of a fixed label keyed with the API key, in the
 * shape of an endpoint secret (`whsec_` + base64 of 32 bytes). The same key gives the same
 * secret on every run and every machine, so it is never written anywhere, and it reveals
 * nothing of the key.
 */
export const localSecretOf = (apiKey: string): string =>
  `whsec_${createHmac('sha256', apiKey).update(LABEL).digest('base64')}`;

/** A name for per-key files that reveals nothing of the key (nor of the address). */
export const keyFingerprint = (apiKey: string, baseUrl: string): string =>
  createHash('sha256').update(`${baseUrl}\n${apiKey}`).digest('hex').slice(0, 24);

/** The signature headers of one delivery, as the service signs them (docs/events.md). */
export function signedHeaders(secret: string, eventId: string, unixSeconds: number, body: string) {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  const standardKey = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const standard = createHmac('sha256', standardKey)
    .update(`${eventId}.${unixSeconds}.${body}`)
    .digest('base64');
  return {
    'x-service-signature': `t=${unixSeconds},v1=${v1}`,
    'x-service-event-id': eventId,
    'webhook-id': eventId,
    'webhook-timestamp': String(unixSeconds),
    'webhook-signature': `v1,${standard}`,
  };
}
