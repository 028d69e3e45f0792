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
  info?: { title?: string; description?: string };
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

/** The seller document with the guides as its introduction: what the reference UI renders. */
export function documentWithGuides(doc: OpenApiDoc, openApiUrl: string): OpenApiDoc {
  const intro = doc.info?.description ?? '';
  return { ...doc, info: { ...doc.info, description: `${intro}\n${guidesMarkdown(openApiUrl)}` } };
}

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
<style>body{margin:0}tr:target td{background:#fff8c5}#reference table{display:table;width:100%}#reference td:first-child code{word-break:normal;overflow-wrap:normal}</style></head>
<body><div id="reference"><noscript>The reference needs JavaScript; the contract itself is the
<a href="${escapeHtml(openApiUrl)}">OpenAPI 3.1 document</a>.</noscript></div>
<script id="openapi-document" type="application/json">${scriptJson(documentWithGuides(doc, openApiUrl))}</script>
<script src="${REDOC_ASSET_PATH}"></script>
<script>
const spec = JSON.parse(document.getElementById('openapi-document').textContent);
const showAnchor = () => {
  const id = decodeURIComponent(location.hash.slice(1));
  if (id.startsWith('error-')) document.getElementById(id)?.scrollIntoView();
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
