import { describe, expect, it } from 'vitest';
import { batcher } from './batcher.js';

describe('batcher', () => {
  it('runs an item alone when idle, and the items that arrive meanwhile together next', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const first = new Promise<void>((r) => {
      release = r;
    });
    const double = batcher(async (items: number[]) => {
      batches.push(items);
      if (batches.length === 1) await first;
      return items.map((i) => i * 2);
    });
    const a = double(1);
    const rest = [double(2), double(3), double(4)];
    release();
    expect(await Promise.all([a, ...rest])).toEqual([2, 4, 6, 8]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('fails every item of a batch whose run throws, and goes on with the next', async () => {
    let calls = 0;
    const run = batcher(async (items: string[]) => {
      calls++;
      if (items.includes('bad')) throw new Error('boom');
      return items.map((i) => i.toUpperCase());
    });
    const first = run('ok');
    const failing = [run('bad'), run('also')];
    await expect(first).resolves.toBe('OK');
    for (const f of failing) await expect(f).rejects.toThrow('boom');
    await expect(run('later')).resolves.toBe('LATER');
    expect(calls).toBe(3);
  });

  it('keeps a batch within its bound', async () => {
    const sizes: number[] = [];
    const run = batcher(async (items: number[]) => {
      sizes.push(items.length);
      return items;
    }, 2);
    await Promise.all([1, 2, 3, 4, 5].map((i) => run(i)));
    expect(sizes).toEqual([1, 2, 2]);
  });
});
