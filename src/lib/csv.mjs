// RFC 4180 CSV: fields joined by commas, records ended by CRLF; a field holding a comma, a double
// quote, CR or LF is quoted and its quotes doubled; null and undefined are empty fields. Plain
// JavaScript so that the SQLite reader thread formats CSV pages with it (heavy-read.ts).

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value) {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvRecord = (values) => `${values.map(csvField).join(',')}\r\n`;
