import { guidesMarkdown } from './guides.js';

export const REDOC_ASSET_PATH = '/docs/assets/redoc.standalone.js';

/**
 * The page loads only from this service: the reference UI's bundle, its inline start script and
 * styles, and the search worker it starts from a blob. (Redoc's footer badge would load its logo
 * from a CDN; the served bundle no longer asks for it, and the policy would block it.)
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
].join('; ');

interface OpenApiDoc {
  info?: { title?: string; description?: string; version?: string };
  [key: string]: unknown;
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** JSON safe inside a <script> element (no `</script>`, no HTML comment openers). */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');

/**
 * The seller document with the guides as its introduction: what the reference UI renders. The
 * UI prints `info.version` after the title ("Seller Distribution API (1)"); the major version
 * is in every path (`/api/seller/v1`), so the rendered copy leaves it out.
 */
export function documentWithGuides(doc: OpenApiDoc, openApiUrl: string): OpenApiDoc {
  const intro = doc.info?.description ?? '';
  return {
    ...doc,
    info: { ...doc.info, version: '', description: `${intro}\n${guidesMarkdown(openApiUrl)}` },
  };
}

/**
 * Addresses other pages may still link to, and the section each now names: a link never lands
 * at the top of the page.
 */
export const ANCHOR_ALIASES: Record<string, string> = {
  'ip-allowlist': 'section/IP-allowlists',
  sandbox: 'section/Sandbox',
  errors: 'section/Errors',
};

/**
 * The page's own styles: guide tables fit the middle column (the error table's codes break only
 * at underscores), code samples wrap instead of scrolling, and the error row a \`doc_url\` names
 * is highlighted.
 */
const PAGE_STYLE = [
  'body{margin:0}',
  '#reference table{display:table;width:100%}',
  '#reference table.error-codes{table-layout:fixed}',
  '#reference table.error-codes th:nth-child(1){width:38%}',
  '#reference table.error-codes th:nth-child(2),#reference table.error-codes th:nth-child(3){width:5.5em}',
  '#reference table.error-codes td{overflow-wrap:anywhere}',
  '#reference table.error-codes td:first-child code{word-break:normal;overflow-wrap:normal;white-space:normal}',
  '#reference pre{white-space:pre-wrap;overflow-wrap:anywhere}',
  '#reference tr.reached td{background:#fff8c5}',
].join('');

/**
 * /docs: Redoc (served from the `redoc` package by this service, no CDN) over the seller document
 * and its guides. `doc_url` anchors (`#error-CODE`) are rows of the Errors guide: once the UI has
 * rendered, the page scrolls to the row the address names.
 */
export function renderDocsPage(doc: OpenApiDoc, openApiUrl: string): string {
  const title = escapeHtml(doc.info?.title ?? 'API reference');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><link rel="icon" href="data:,">
<style>${PAGE_STYLE}</style></head>
<body><div id="reference"><noscript>The reference needs JavaScript; the contract itself is the
<a href="${escapeHtml(openApiUrl)}">OpenAPI 3.1 document</a>.</noscript></div>
<script id="openapi-document" type="application/json">${scriptJson(documentWithGuides(doc, openApiUrl))}</script>
<script src="${REDOC_ASSET_PATH}"></script>
<script>
const spec = JSON.parse(document.getElementById('openapi-document').textContent);
spec.info.description = spec.info.description.replaceAll('{{origin}}', location.origin);
const aliases = ${JSON.stringify(ANCHOR_ALIASES)};
const showAnchor = () => {
  const id = decodeURIComponent(location.hash.slice(1));
  if (aliases[id]) {
    history.replaceState(null, '', '#' + aliases[id]);
    document.getElementById(aliases[id])?.scrollIntoView();
    return;
  }
  if (!id.startsWith('error-')) return;
  document.querySelectorAll('tr.reached').forEach((row) => row.classList.remove('reached'));
  const row = document.getElementById(id);
  row?.classList.add('reached');
  row?.scrollIntoView();
};
Redoc.init(spec, {
  downloadDefinitionUrl: ${JSON.stringify(openApiUrl)},
  expandResponses: '200,201,202',
  jsonSampleExpandLevel: 3,
  hideHostname: true,
  theme: { typography: { fontFamily: 'system-ui, sans-serif', headings: { fontFamily: 'system-ui, sans-serif' } } },
}, document.getElementById('reference'), showAnchor);
window.addEventListener('hashchange', showAnchor);
</script>
</body></html>`;
}
