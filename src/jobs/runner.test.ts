import { describe, expect, it } from 'vitest';
import { JobRunner } from './runner.js';

describe('job runner', () => {
  it('runs a job again at once while it reports more work, then sleeps until woken', async () => {
    let rounds = 0;
    let work = 3;
    const runner = new JobRunner();
    runner.add({
      name: 'count',
      idleMs: 60_000,
      run: async () => {
        rounds += 1;
        return work-- > 0;
      },
    });
    runner.start();
    await new Promise((r) => setTimeout(r, 50));
    expect(rounds).toBe(4); // three with work, one that found none
    runner.wake('count');
    await new Promise((r) => setTimeout(r, 50));
    expect(rounds).toBe(5);
    await runner.stop();
  });

  it('keeps running after a failing round and finishes jobs on stop', async () => {
    const errors: string[] = [];
    let rounds = 0;
    let stopped = false;
    const runner = new JobRunner((job) => errors.push(job));
    runner.add({
      name: 'flaky',
      idleMs: 5,
      run: async () => {
        rounds += 1;
        if (rounds === 1) throw new Error('boom');
        return false;
      },
      stop: async () => {
        stopped = true;
      },
    });
    runner.start();
    await new Promise((r) => setTimeout(r, 60));
    await runner.stop();
    expect(errors).toEqual(['flaky']);
    expect(rounds).toBeGreaterThan(2);
    expect(stopped).toBe(true);
  });
});
