import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { expect } from 'vitest';
import type { TestApp } from '../harness.js';

/** GET /metrics on the operator listener, parsed (and its text, for what the parser drops). */
export async function scrapeMetrics(t: TestApp) {
  const response = await t.adminApp.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('text/plain');
  return Object.assign(parsePrometheusTextFormat(response.body), { text: response.body });
}

export type Families = Awaited<ReturnType<typeof scrapeMetrics>>;

/**
 * The `_count` sample of a labelled histogram, read from the text: the parser merges the samples
 * of a histogram into one and keeps only label-less counts.
 */
export function histogramCount(families: Families, name: string, labels: Record<string, string>): number {
  const line = families.text
    .split('\n')
    .find(
      (l) =>
        l.startsWith(`${name}_count{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)),
    );
  return Number(line?.split(' ').at(-1) ?? 0);
}

/** The value of the counter or gauge series `name` whose labels include `labels`; 0 if absent. */
export function sampleOf(families: Families, name: string, labels: Record<string, string> = {}): number {
  const family = families.find((f) => f.name === name);
  const sample = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return Number(sample?.value ?? 0);
}
