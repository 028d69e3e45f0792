import { describe, expect, it } from 'vitest';
import { newRequestId } from '../http/edge-errors.js';
import { timeOrderedBase32 } from './ids.js';

describe('time-ordered ids', () => {
  it('sort by their millisecond time, random after it', () => {
    const times = [0, 1, 31, 32, 1_700_000_000_000, 1_700_000_000_001, 1_800_000_000_000, 2 ** 48];
    const ids = times.map((ms) => timeOrderedBase32(20, ms));
    for (const id of ids) expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{20}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(timeOrderedBase32(20, 0).slice(0, 10)).toBe('0000000000');
    expect(timeOrderedBase32(20, 33).slice(0, 10)).toBe('0000000011');
    expect(new Set(Array.from({ length: 1000 }, () => timeOrderedBase32(20, 5))).size).toBe(1000);
  });

  it('request ids keep their form and come in time order', async () => {
    const first = newRequestId();
    await new Promise((resolve) => setTimeout(resolve, 3));
    const second = newRequestId();
    expect(first).toMatch(/^req_[0-9a-z]{20}$/);
    expect(second).toMatch(/^req_[0-9a-z]{20}$/);
    expect(first < second).toBe(true);
  });
});
