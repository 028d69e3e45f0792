import { OPT_IN_SCOPES, SCOPES } from '../../http/auth/scopes.js';
import { ERROR_CODES } from '../../http/errors.js';
import { SANDBOX_LIMITS_PER_MINUTE } from '../../http/rate-limit.js';
import { SIMULATE_EFFECTS } from '../../http/simulate.js';
import { MAGIC_SKUS } from '../sandbox/index.js';

/**
 * The tables of the /docs guides, rendered from the tables the service itself runs on (error
 * registry, scopes, rate limits, sandbox fixtures, simulate values), so the guides cannot drift.
 * HTML rather than Markdown tables: each error row carries its `doc_url` anchor (`error-CODE`).
 */
const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** Inline `code` spans of the registry's plain-text hints, as Markdown would render them. */
const inline = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const table = (head: string[], rows: string[][], rowIds?: string[], className?: string) =>
  `<table${className ? ` class="${className}"` : ''}><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>\n${rows
    .map((cells, i) => {
      const id = rowIds?.[i] ? ` id="${rowIds[i]}"` : '';
      return `<tr${id}>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
    })
    .join('\n')}\n</tbody></table>`;

export const errorsTable = () => {
  const codes = Object.entries(ERROR_CODES);
  return table(
    ['Code', 'HTTP', 'Recoverable', 'What to do'],
    codes.map(([code, info]) => [
      `<a href="#error-${code}"><code>${code.replaceAll('_', '_<wbr>')}</code></a>`,
      String(info.status),
      info.recoverable ? 'yes' : 'no',
      inline(info.hint),
    ]),
    codes.map(([code]) => `error-${code}`),
    'error-codes',
  );
};

export const scopesTable = () =>
  table(
    ['Scope', 'Granted to a new key'],
    SCOPES.map((scope) => [
      `<code>${scope}</code>`,
      OPT_IN_SCOPES.includes(scope) ? 'only when asked for by name (opt-in)' : 'by default',
    ]),
  );

export const rateLimitsTable = () =>
  table(
    ['Bucket', 'Requests per minute', 'Which requests'],
    [
      ['<code>write</code>', String(SANDBOX_LIMITS_PER_MINUTE.write), 'POST, PUT, PATCH, DELETE'],
      ['<code>read</code>', String(SANDBOX_LIMITS_PER_MINUTE.read), 'GET'],
      [
        '<code>read-cached</code>',
        String(SANDBOX_LIMITS_PER_MINUTE['read-cached']),
        'GETs that declare it (the catalog snapshot)',
      ],
    ],
  );

const poolText = (pool: (typeof MAGIC_SKUS)[number]['pool']) => {
  switch (pool.mode) {
    case 'infinite':
      return 'never runs out';
    case 'pinned':
      return `${pool.available} available`;
    case 'per_company':
      return `${pool.keys} keys per company`;
    case 'empty':
      return 'empty';
  }
};

export const magicSkusTable = () =>
  table(
    ['SKU', 'Product', 'Platform', 'Stock', 'Behaviour'],
    MAGIC_SKUS.map((sku) => [
      `<code>${sku.code}</code>`,
      escapeHtml(sku.product),
      sku.platform,
      poolText(sku.pool),
      inline(sku.description),
    ]),
  );

export const simulateTable = () =>
  table(
    ['Value', 'Effect'],
    Object.entries(SIMULATE_EFFECTS).map(([value, effect]) => [`<code>${value}</code>`, inline(effect)]),
  );
