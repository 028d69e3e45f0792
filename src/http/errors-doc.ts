import { ERROR_MEANINGS } from './error-meanings.js';
import { ERROR_CODES, type ErrorCode } from './errors.js';

/** A Markdown table cell: pipes escaped, one line. */
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/**
 * docs/errors.md, rendered from the registry (src/http/errors.ts) and the meanings beside it.
 * `npm run docs:errors` writes it; src/http/errors-doc.test.ts fails when the file is stale.
 */
export function renderErrorsDoc(): string {
  const codes = Object.entries(ERROR_CODES) as [ErrorCode, (typeof ERROR_CODES)[ErrorCode]][];
  const rows = codes.map(
    ([code, info]) =>
      `| \`${code}\` | ${info.status} | ${info.recoverable ? 'yes' : 'no'} | ${cell(ERROR_MEANINGS[code] ?? '')} | ${cell(info.hint)} |`,
  );
  return `# Error codes

<!-- Generated from src/http/errors.ts and src/http/error-meanings.ts by \`npm run docs:errors\`; do not edit. -->

Every failure answers one flat JSON envelope:

\`\`\`json
{
  "code": "NO_AVAILABLE_KEYS",
  "message": "What went wrong, for a person.",
  "recoverable": true,
  "hint": "What to do about it.",
  "doc_url": "http://localhost:8080/docs#error-NO_AVAILABLE_KEYS",
  "requestId": "req_…",
  "details": {}
}
\`\`\`

\`doc_url\` opens the code's row in the Errors section of \`/docs\`. \`requestId\` is also the
\`X-Request-Id\` header; quote it to support. \`details\` carries the facts of the failure (for
\`VALIDATION_FAILED\`, \`details.issues[]\` names every field with \`{field, in, message, keyword}\`, and
\`params\` where the rule has figures: \`limit\` of a length or range, \`allowedValues\`, the refused
allowlist \`entry\`, a webhook URL's \`reason\`).
\`hint\` is the code's usual advice below, or advice for this particular failure where the usual
one would not fit.

## What \`recoverable\` means

- **yes**: the same request, sent again unchanged, can succeed later: after waiting (a rate
  limit, a request still running, stock coming back, the service recovering), or once state
  outside the request changes (the seller's footprint or account, an agreement, the publisher's
  catalog). Retry with the same \`Idempotency-Key\` once that has happened.
- **no**: the request as sent fails again. Change it (a field, a price, the key you send) before
  sending it; retrying it unchanged only repeats the answer.

Nothing is half-applied: every refusal below leaves the service as it was.

## Every code

| Code | HTTP | Recoverable | Meaning | What to do |
| --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
}
