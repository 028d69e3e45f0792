/**
 * The console's one way to write numbers, counts, dates and "how long ago": the browser's
 * Intl formatters, made once. Counts pair a number with its noun through the language's
 * plural rules (the console's words are English), so no page writes "1 calls" or "key(s)".
 */
const numbers = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const plurals = new Intl.PluralRules('en');
const dates = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const seconds = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
// Months and days the API names in UTC (statements, usage) are written in UTC too.
const months = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
const days = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const percents = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
const currencies = new Map<string, Intl.NumberFormat>();
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

/** To the second, where the order of close events matters (a delivery log, its attempts). */
export const formatTime = (iso: string | null | undefined) => (iso ? seconds.format(new Date(iso)) : '—');

const axisDays = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const axisTimes = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const axisSeconds = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

/** A time axis tick: the day where ticks are days apart, else the time of day (to the second where they are seconds apart). */
export function formatAxisTime(ms: number, stepMs: number): string {
  const format = stepMs >= 86_400_000 ? axisDays : stepMs >= 60_000 ? axisTimes : axisSeconds;
  return format.format(new Date(ms));
}

/** A UTC month `2025-03` as "March 2025". */
export const formatMonth = (month: string) => months.format(new Date(`${month}-01T00:00:00Z`));

/** A UTC day `2025-03-04` as "Mar 4". */
export const formatDay = (day: string) => days.format(new Date(`${day}T00:00:00Z`));

/** A percentage given as a number of percent (42.5 is "42.5%"). */
export const formatPercent = (percent: number) => percents.format(percent / 100);

/** Minor units (cents) written in their currency, exactly: no rounding beyond the currency's own. */
export function formatMoney(cents: number | null | undefined, currency: string | null | undefined): string {
  if (cents === null || cents === undefined) return '—';
  const code = currency ?? 'USD';
  let format = currencies.get(code);
  if (!format) {
    format = new Intl.NumberFormat(undefined, { style: 'currency', currency: code });
    currencies.set(code, format);
  }
  return format.format(cents / 100);
}

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
