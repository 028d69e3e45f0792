import { ERROR_CODES } from '../../http/errors.js';

interface OpenApiDoc {
  info?: { title?: string; description?: string };
  paths?: Record<
    string,
    Record<string, { summary?: string; tags?: string[]; responses?: Record<string, unknown> }>
  >;
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

function operationRows(doc: OpenApiDoc): string {
  const rows: string[] = [];
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(operations)) {
      const codes = Object.keys(op.responses ?? {}).join(' ');
      rows.push(
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escapeHtml(path)}</code></td><td>${escapeHtml(op.summary ?? '')}</td><td>${codes}</td></tr>`,
      );
    }
  }
  return rows.join('\n');
}

function errorRows(): string {
  return Object.entries(ERROR_CODES)
    .map(
      ([code, info]) =>
        `<tr id="error-${code}"><td><code>${code}</code></td><td>${info.status}</td><td>${info.recoverable}</td><td>${escapeHtml(info.hint)}</td></tr>`,
    )
    .join('\n');
}

/** A self-contained page rendered from the live OpenAPI document and the error registry. */
export function renderDocsPage(doc: OpenApiDoc, openApiUrl: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info?.title ?? 'API')}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:1100px;margin:2rem auto;padding:0 1rem;color:#1b1f23}
table{border-collapse:collapse;width:100%;margin:1rem 0}td,th{border-bottom:1px solid #e1e4e8;padding:.35rem .5rem;text-align:left;vertical-align:top}
code{background:#f3f4f6;padding:0 .25rem;border-radius:3px}tr:target{background:#fff8c5}</style></head>
<body><h1>${escapeHtml(doc.info?.title ?? 'API')}</h1><p>${escapeHtml(doc.info?.description ?? '')}</p>
<p>Machine-readable contract: <a href="${escapeHtml(openApiUrl)}">OpenAPI 3.1 document</a>.</p>
<h2 id="authentication">Authentication</h2>
<p>Send <code>Authorization: Bearer service_sk_…</code>: exactly one space, no quotes. <code>service_sk_sbx_</code> keys reach the sandbox catalog; <code>service_sk_live_</code> keys reach production. Call <code>GET /api/seller/v1/whoami</code> first for any auth failure.</p>
<h2 id="ip-allowlist">IP allowlist</h2>
<p>A key with a non-empty <code>allowed_ips</code> list answers only to requests from those addresses (IPv4/IPv6 addresses or CIDRs; private, loopback, link-local, CGNAT, ULA, multicast, documentation and benchmark ranges are refused, and so is <code>/0</code>). <code>GET /api/seller/v1/whoami-ip</code> shows the address this service sees.</p>
<h2 id="idempotency">Idempotency</h2>
<p>Mutations accept <code>Idempotency-Key</code> (required where the operation says so). A repeat within 24 hours replays the stored reply with <code>Idempotency-Replayed: true</code>; the same key with another body answers <code>IDEMPOTENCY_KEY_MISMATCH</code>; a repeat while the first still runs answers <code>IDEMPOTENCY_REQUEST_IN_PROGRESS</code>. Server faults, rate limits and in-progress answers are not stored, so retrying the same key runs the request again.</p>
<h2 id="operations">Operations</h2>
<table><tr><th>Method</th><th>Path</th><th>What it does</th><th>Responses</th></tr>
${operationRows(doc)}</table>
<h2 id="errors">Errors</h2>
<p>Every failure answers the flat <code>ApiError</code> envelope: <code>code</code>, <code>message</code>, <code>recoverable</code>, <code>hint</code>, <code>doc_url</code>, <code>requestId</code>, <code>details</code>.</p>
<table><tr><th>Code</th><th>HTTP</th><th>Recoverable</th><th>What to do</th></tr>
${errorRows()}</table>
</body></html>`;
}
