import { describe, expect, it } from 'vitest';
import { keyedGate } from './gate.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('keyedGate', () => {
  it('runs at most `limit` per key at once, the rest in arrival order, other keys apart', async () => {
    const gate = keyedGate(2);
    let running = 0;
    let most = 0;
    const started: string[] = [];
    const releases: (() => void)[] = [];
    const work = (name: string) => () => {
      started.push(name);
      most = Math.max(most, ++running);
      return new Promise<string>((resolve) => releases.push(() => resolve(name))).finally(() => running--);
    };
    const done = ['a', 'b', 'c', 'd'].map((n) => gate('hot', work(n)));
    const other = gate('cold', work('x'));
    await tick();
    expect(started).toEqual(['a', 'b', 'x']);
    releases.shift()!();
    await tick();
    expect(started).toEqual(['a', 'b', 'x', 'c']);
    while (releases.length > 0) {
      releases.shift()!();
      await tick();
    }
    expect(await Promise.all([...done, other])).toEqual(['a', 'b', 'c', 'd', 'x']);
    expect(started).toEqual(['a', 'b', 'x', 'c', 'd']);
    expect(most).toBe(3);
  });

  it('lets the next one in when a caller fails', async () => {
    const gate = keyedGate(1);
    const failed = gate('k', () => Promise.reject(new Error('boom')));
    const next = gate('k', async () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('ran');
  });
});
