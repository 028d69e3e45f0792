import { createHash } from 'node:crypto';
import type { PageState, RedemptionRecord } from './redemption-page.service.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const STYLE = `
:root{color-scheme:light;--ink:#1b1f24;--muted:#57606a;--line:#d0d7de;--brand:#0a58ca;--bg:#f4f6f8}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:34rem;margin:3rem auto;padding:0 1rem}
.card{background:#fff;border:1px solid var(--line);border-radius:12px;padding:2rem;box-shadow:0 1px 3px rgba(0,0,0,.06)}
.eyebrow{margin:0 0 .25rem;color:var(--muted);font-size:.875rem;text-transform:uppercase;letter-spacing:.06em}
h1{margin:0 0 1rem;font-size:1.5rem;line-height:1.25}
.platform{display:inline-block;margin:0 0 1.25rem;padding:.125rem .625rem;border:1px solid var(--line);border-radius:999px;font-size:.875rem;color:var(--muted)}
h2{margin:1.5rem 0 .5rem;font-size:1rem}
ol{margin:0;padding-left:1.25rem}
li{margin:.25rem 0}
p{margin:.5rem 0}
.note{color:var(--muted);font-size:.875rem}
button{margin-top:1.5rem;width:100%;padding:.75rem 1rem;border:0;border-radius:8px;background:var(--brand);color:#fff;font:inherit;font-weight:600;cursor:pointer}
button:hover{background:#084298}
button:focus-visible{outline:3px solid #86b7fe;outline-offset:2px}
.key{display:block;margin:.5rem 0;padding:.75rem 1rem;border:1px dashed var(--brand);border-radius:8px;background:#f0f5ff;font:600 1.125rem/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;letter-spacing:.04em;word-break:break-all;user-select:all}
footer{margin-top:1rem;text-align:center;color:var(--muted);font-size:.8125rem}
`;

/**
 * The page's only style, allowed by its hash: the policy admits no script, no other style, no
 * frame, no image and no form target but this service.
 */
export const REDEMPTION_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const PLATFORMS: Record<string, { name: string; steps: string[] }> = {
  steam: {
    name: 'Steam',
    steps: [
      'Open the Steam app and sign in.',
      'Choose Games, then Activate a Product on Steam.',
      'Enter your key and follow the prompts; the game appears in your library.',
    ],
  },
  ps5: {
    name: 'PlayStation 5',
    steps: [
      'On your console, open PlayStation Store.',
      'Open the menu, choose Redeem Codes and Add-Ons.',
      'Enter your key; the content downloads to your library.',
    ],
  },
  xbox: {
    name: 'Xbox',
    steps: [
      'On your console, open Microsoft Store.',
      'Choose Redeem, then enter your key.',
      'Confirm; the game appears under My games & apps.',
    ],
  },
};

const platformOf = (code: string) =>
  PLATFORMS[code.toLowerCase()] ?? {
    name: code,
    steps: [
      `Open the ${code} store or launcher and sign in.`,
      'Find the option to redeem a code and enter your key.',
    ],
  };

function activationNote(record: RedemptionRecord): string {
  if (record.activation_type !== 'countries' || !record.activation_countries) return '';
  const countries = (JSON.parse(record.activation_countries) as string[]).join(', ');
  return `<p class="note">This key activates only in: ${escapeHtml(countries)}.</p>`;
}

function layout(title: string, body: string, footer = true): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<div class="card">
${body}
</div>
${footer ? '<footer>Keep this page private: anyone with its link can see your key.</footer>' : ''}
</main>
</body>
</html>`;
}

function header(record: RedemptionRecord): string {
  const platform = platformOf(record.platform_code);
  return `<p class="eyebrow">Your game key</p>
<h1>${escapeHtml(record.product_name)}</h1>
<p class="platform">Platform: ${escapeHtml(platform.name)}</p>`;
}

function instructions(record: RedemptionRecord): string {
  const steps = platformOf(record.platform_code)
    .steps.map((step) => `<li>${escapeHtml(step)}</li>`)
    .join('');
  return `<h2>How to activate</h2>
<ol>${steps}</ol>
${activationNote(record)}`;
}

const CLOSED: Record<'unknown' | 'expired' | 'revoked' | 'unavailable', { title: string; text: string }> = {
  unknown: {
    title: 'This link is not valid',
    text: 'We could not find a key for this link. Check that you opened the whole link from your order email; if the shop sent you a newer link, use that one.',
  },
  expired: {
    title: 'This link has expired',
    text: 'The time to redeem this key has passed. Please contact the shop where you bought the game.',
  },
  revoked: {
    title: 'This link was withdrawn',
    text: 'The shop withdrew this link. If you still need your key, please contact the shop where you bought the game; they can send you a new link.',
  },
  unavailable: {
    title: 'This key is no longer available',
    text: 'The key behind this link was refunded or returned. Please contact the shop where you bought the game.',
  },
};

/** The whole page for a state: HTML with every value escaped, styled only by the hashed sheet. */
export function renderRedemptionPage(state: PageState, revealAction: string): string {
  if (state.kind === 'live') {
    const plural = state.record.quantity > 1;
    return layout(
      `Redeem ${state.record.product_name}`,
      `${header(state.record)}
${instructions(state.record)}
<form method="post" action="${escapeHtml(revealAction)}">
<button type="submit">Reveal my key${plural ? 's' : ''}</button>
</form>
<p class="note">Reveal the key when you are ready to activate it.</p>`,
    );
  }
  if (state.kind === 'revealed') {
    const keys = state.keys.map((key) => `<code class="key">${escapeHtml(key)}</code>`).join('\n');
    return layout(
      `Your key for ${state.record.product_name}`,
      `${header(state.record)}
<h2 id="keys-heading">Your key${state.keys.length > 1 ? 's' : ''}</h2>
<div aria-labelledby="keys-heading">
${keys}
</div>
${instructions(state.record)}`,
    );
  }
  const closed = CLOSED[state.kind];
  return layout(
    closed.title,
    `<p class="eyebrow">Game key</p>\n<h1>${escapeHtml(closed.title)}</h1>\n<p>${escapeHtml(closed.text)}</p>`,
    false,
  );
}

export const STATUS_OF: Record<PageState['kind'], number> = {
  live: 200,
  revealed: 200,
  unknown: 404,
  expired: 410,
  revoked: 410,
  unavailable: 410,
};
