/**
 * The console's one way to write numbers, counts, dates and "how long ago": the browser's
 * Intl formatters, made once. Counts pair a number with its noun through the language's
 * plural rules (the console's words are English), so no page writes "1 calls" or "key(s)".
 */
const numbers = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const plurals = new Intl.PluralRules('en');
const dates = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** 1000000 as the reader's locale writes it (1,000,000). */
export const formatNumber = (value: number) => numbers.format(value);

/** A noun's two English forms; `other` defaults to the singular plus "s". */
export type Noun = string | { one: string; other: string };

/** "1 key", "999,995 keys": the number with the noun form its plural category takes. */
export function countOf(value: number, noun: Noun): string {
  const forms = typeof noun === 'string' ? { one: noun, other: `${noun}s` } : noun;
  return `${formatNumber(value)} ${plurals.select(value) === 'one' ? forms.one : forms.other}`;
}

/** An ISO timestamp as a medium date and short time; a dash when there is none. */
export const formatDate = (iso: string | null | undefined) => (iso ? dates.format(new Date(iso)) : '—');

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "3 minutes ago", "in 2 days": how far `iso` is from `now`, in the largest whole unit. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  let amount = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return relative.format(Math.round(amount), unit);
    amount /= size;
  }
  return formatDate(iso);
}
