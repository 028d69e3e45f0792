import { describe, expect, it } from 'vitest';
import { memoPerObject } from './memo.js';

describe('memoPerObject', () => {
  it('computes once per object and key, and apart for another object with equal contents', () => {
    const calls: string[] = [];
    const length = memoPerObject((words: string[], index: number) => {
      calls.push(`${words.join()}#${index}`);
      return words[index]?.length ?? 0;
    }, 10);
    const words = ['a', 'bbb'];
    expect([length(words, 1), length(words, 1), length(words, 0)]).toEqual([3, 3, 1]);
    expect(length([...words], 1)).toBe(3);
    expect(calls).toEqual(['a,bbb#1', 'a,bbb#0', 'a,bbb#1']);
  });

  it('starts an object over once it holds the limit, answering the same', () => {
    let computed = 0;
    const double = memoPerObject((_owner: object, n: number) => {
      computed += 1;
      return n * 2;
    }, 3);
    const owner = {};
    for (const n of [1, 2, 3, 4]) expect(double(owner, n)).toBe(n * 2);
    expect(computed).toBe(4);
    expect(double(owner, 4)).toBe(8);
    expect(computed).toBe(4);
    expect(double(owner, 1)).toBe(2);
    expect(computed).toBe(5);
  });
});
