import { SUPPORTED_CONTRACT_DATES } from '../../http/versioning.js';
import { errorsTable, magicSkusTable, rateLimitsTable, scopesTable, simulateTable } from './guide-tables.js';

/**
 * The guides of /docs, as the document's introduction: the reference UI renders each `#` heading
 * as a section of its side menu, before the operations. Facts come from docs/*.md; every table
 * comes from the code that enforces it (guide-tables.ts).
 */
export function guidesMarkdown(openApiPath: string): string {
  const [oldest, newest] = [SUPPORTED_CONTRACT_DATES[0], SUPPORTED_CONTRACT_DATES.at(-1)];
  return `
# Quick start

Every command below uses \`$SDAPI\`, this service's address (\`{{origin}}\` for the page you are reading),
and \`$KEY\`, the sandbox key \`npm start\` printed on its first start (\`service_sk_sbx_…\`):

\`\`\`sh
export SDAPI={{origin}} KEY=service_sk_sbx_…
\`\`\`

1. Who am I? \`curl -s -H "Authorization: Bearer $KEY" $SDAPI/api/seller/v1/whoami\` names your company,
   the key's scopes and, for a sandbox key, the magic SKUs you can try (\`sandboxNotes\`).
2. A first webhook endpoint, so you hear about the order. Any HTTPS receiver works; on your own
   machine, start the service with \`SDAPI_ALLOW_INSECURE_WEBHOOKS=1\` to register a local
   \`http://\` URL. Keep the \`secret\` of the answer to verify signatures.

   \`\`\`sh
   curl -s -X POST $SDAPI/api/seller/v1/webhooks -H "Authorization: Bearer $KEY" \\
     -H 'Content-Type: application/json' \\
     -d '{"url":"http://localhost:4000/hooks","eventTypes":["order.fulfilled"]}'
   \`\`\`
3. A first order, on the sandbox SKU that never runs out; the answer holds the keys, and the
   endpoint receives \`order.fulfilled\`:

   \`\`\`sh
   curl -s -X POST $SDAPI/api/seller/v1/orders -H "Authorization: Bearer $KEY" \\
     -H 'Content-Type: application/json' -H "Idempotency-Key: $(uuidgen || date +%s%N)" \\
     -d '{"skuCode":"SANDBOX-ALWAYS-001","quantity":1,"orderReference":"my-first-order",
          "expectedUnitPriceCents":1999,
          "integrationOrderContext":{"salesCountryCode":"US","currencyCode":"USD",
            "salesTaxRatePercent":0,"salesPriceGrossMinor":1999,"salesChannel":"web"}}'
   \`\`\`
4. Then: the TypeScript SDK in \`sdk/\` (\`@sdapi/sdk\`, installed from its \`npm pack\` tarball):
   typed calls generated from [this document](${openApiPath}), automatic \`Idempotency-Key\`, safe
   retries, cursor iterators and \`verifyWebhook\`. The sample storefront in \`examples/storefront/\`
   sells a key end to end: browse, preview, hold, charge, order, \`order.fulfilled\` by webhook,
   key recovery after a crash. Try a hot drop on \`SANDBOX-HOTDROP-001\` ([Sandbox](#section/Sandbox)).
5. The seller console at \`{{origin}}/console\` shows the same company in a browser:
   keys, webhooks and every delivery attempt, orders and refunds, the request log (find a failed
   call by its \`X-Request-Id\`), finance and the team. An operator lets its first owner in with
   \`npx sdapi users invite --company <id> --email you@example.com --role owner\` (the command the
   service prints at every start), which answers a one-time invite link.
6. Webhooks on your laptop, without a public URL: the seller CLI in \`cli/\` forwards your events
   to a local handler, signed as real deliveries, and triggers sandbox events
   (\`npm run seller-cli -- listen --forward-to http://localhost:3000/webhooks\`, then
   \`npm run seller-cli -- trigger order.fulfilled\`).

# Authentication and scopes

Send \`Authorization: Bearer <key>\`: exactly one space, the raw token, no quotes.
\`service_sk_sbx_\` keys reach the sandbox catalog; \`service_sk_live_\` keys reach production.
Checks run in this order: token shape, live key (401), expiry (401), an empty scope set (401),
IP allowlist (403), production access (403), the operation's scopes (403 \`INSUFFICIENT_SCOPE\`).
\`GET /api/seller/v1/whoami\` explains any authentication failure.

A key created with \`POST /keys\` gets the creator's scopes, less the opt-in ones unless named,
and is always in the creator's environment: a key can only hand on what it holds, and a sandbox
key holds no production access, so \`POST /keys\` has no environment field (an unknown field is
refused with \`VALIDATION_FAILED\` naming it). Production keys come from a production key or an
operator. Each operation below names the scopes it needs.

${scopesTable()}

# IP allowlists

A key with a non-empty \`allowed_ips\` list answers only to requests from those IPv4/IPv6
addresses or CIDRs (otherwise 403 \`IP_NOT_ALLOWED\`). Private, loopback, link-local, CGNAT, ULA,
multicast, documentation and benchmark ranges are refused, and so is \`/0\`. Production keys
always carry a list; a sandbox key's list may be cleared with \`[]\`. Edit it with
\`PATCH /keys/{id}/allowed-ips\` from an allowed address, or with another key of your company whose
own list covers the new entries (a refused key cannot fix itself: the \`IP_NOT_ALLOWED\` hint says
what can); \`GET /whoami-ip\` shows the address the service sees. On a development machine,
\`SDAPI_DEV_LOOPBACK_ALLOWLIST=1\` lets callers on that machine pass allowlists (the service refuses
it with PostgreSQL or \`NODE_ENV=production\`). Behind a
proxy, only a trusted peer may set \`X-Forwarded-For\`; a header that holds no address answers
\`IP_NOT_RESOLVABLE\`.

# Idempotency

Mutations accept \`Idempotency-Key\` (1 to 255 printable ASCII characters; required on
\`POST /orders/hold\`). A repeat within 24 hours replays the stored status and body with
\`Idempotency-Replayed: true\`; the same key with another body answers
\`IDEMPOTENCY_KEY_MISMATCH\`; a repeat while the first still runs answers
\`IDEMPOTENCY_REQUEST_IN_PROGRESS\` with \`Retry-After\`. Server faults, rate limits and
in-progress answers are not stored, so retrying with the same key runs the request again.
Orders are also deduplicated by \`orderReference\`: the same reference, SKU and quantity
replays the order and its keys. Lost the reply of an order? \`POST /orders/recover-keys\`
returns the keys already sold under a reference and never pulls new ones.

# Rate limits

Sandbox keys are limited per company, route class (\`catalog\`, \`orders\`, \`finance\`,
\`webhooks\`, \`general\`) and bucket, over a sliding one-minute window. Production keys are
never counted or refused. Every sandbox reply carries \`X-RateLimit-Limit\`,
\`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; a refusal is 429
\`RATE_LIMIT_EXCEEDED\` with \`Retry-After\` (seconds).

${rateLimitsTable()}

# Contract dates

Behaviour is pinned by a contract date in \`X-Service-Api-Version\` (supported:
${SUPPORTED_CONTRACT_DATES.map((d) => `\`${d}\``).join(', ')}). Every reply states the date it was
answered under. Without the header a request gets the current default: \`${newest}\` from
${newest}T00:00Z, \`${oldest}\` before. An unsupported date answers \`UNSUPPORTED_API_VERSION\`
with \`details.supportedVersions\`. Pin a date in production (the SDK pins the newest date it was
generated against) and move it when you have read what changed. The major version is in the path
(\`/api/seller/v1\`); unversioned paths answer 308 to \`v1\`. Once a sunset is published for a
date, replies to requests pinned to it carry \`Deprecation\`, \`Sunset\` (the date after which the
pin may stop working) and a \`Link\` (\`rel="sunset"\`) to this section: move your pin before then.

# Sandbox

Sandbox keys see one fixture publisher whose SKUs each show one behaviour; no real key is ever
sold (synthetic keys start with \`SBX-\`).

${magicSkusTable()}

A hot drop: reserve on \`SANDBOX-HOTDROP-001\` (\`POST /orders/reserve\`, then \`POST /orders/commit\`;
it never runs dry) or on \`SANDBOX-HOTDROP-LIMITED-001\`, whose five keys per company sell out
(409 \`SOLD_OUT\`).

Send \`X-Service-Sandbox-Simulate: <value>\` with a sandbox key to provoke a failure (a production
key sending it gets \`KEY_ENVIRONMENT_MISMATCH\`; an unknown value \`VALIDATION_FAILED\`). Each is
transient: the same \`Idempotency-Key\` succeeds when retried without the header.

${simulateTable()}

# Webhooks and signatures

Register an endpoint with \`POST /webhooks\` \`{url, eventTypes?}\`; the answer holds its \`secret\`
(\`whsec_…\`) once. The URL must be \`https://\` on a public host; a service started with
\`SDAPI_ALLOW_INSECURE_WEBHOOKS=1\` (development only) also admits \`http://\` and loopback URLs, to
receive webhooks on your own machine. Deliveries are \`POST\`s of the event envelope
\`{eventId, eventType, eventVersion, createdAt, data}\`, at least once (dedupe on \`eventId\`),
in no guaranteed order (order by \`createdAt\`). Answer 2xx within 15 s; failures are retried
for about 3.5 days (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 14 h, 20 h, 24 h) and ten
consecutive failures disable the endpoint. \`GET /events\` lists the same events for polling.

Every delivery is signed twice with the one secret; verify either, on the **raw body**:

- \`X-Service-Signature: t=<unix>,v1=<hex>\`: HMAC-SHA256 of \`{t}.{rawBody}\`, keyed with the
  secret string exactly as returned (its UTF-8 bytes, \`whsec_\` included), lowercase hex.
- Standard Webhooks (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature: v1,<base64>\`):
  HMAC-SHA256 of \`{webhook-id}.{webhook-timestamp}.{rawBody}\`, keyed with the base64-decoded
  part after \`whsec_\`. Standard Webhooks libraries verify it unchanged.

Reject a timestamp more than 300 s from your clock. After \`rotateSecret\` the previous secret
signs beside the new one for 24 h (two signatures, newest first): accept any match.

\`\`\`js
import { createHmac, timingSafeEqual } from 'node:crypto';

function verify(rawBody, header, secret, toleranceSeconds = 300) {
  const parts = header.split(',');
  const t = parts.find((p) => p.startsWith('t='))?.slice(2);
  const age = Math.abs(Date.now() / 1000 - Number(t));
  if (!t || age > toleranceSeconds) return false;
  const expected = Buffer.from(
    createHmac('sha256', secret)
      .update(\`\${t}.\${rawBody}\`)
      .digest('hex'),
  );
  return parts
    .filter((p) => p.startsWith('v1='))
    .some((p) => {
      const got = Buffer.from(p.slice(3));
      return got.length === expected.length
        && timingSafeEqual(got, expected);
    });
}
\`\`\`

With the SDK: \`verifyWebhook(rawBody, headers, secret)\` checks either scheme and returns the event.

# Errors

Every failure answers one flat envelope: \`code\`, \`message\`, \`recoverable\`, \`hint\`,
\`doc_url\` (a link to the code's row below), \`requestId\` and \`details\` (for validation,
\`details.issues[]\` names each field). \`recoverable\` is true when the same request, unchanged,
can succeed later (after waiting, or once state outside it changes: footprint, agreement, stock);
false when the request itself must change first.

${errorsTable()}
`;
}
