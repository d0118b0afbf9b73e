import { describe, expect, it } from 'vitest';
import { RetentionQueue } from './retention-queue.js';

describe('RetentionQueue', () => {
  it('frees each key once its retention has passed, oldest first, and only those', () => {
    const queue = new RetentionQueue<string>(1000);
    queue.add('a', 0);
    queue.add('b', 500);
    queue.add('c', 2000);
    const freed: string[] = [];
    queue.sweep(999, (key) => freed.push(key));
    expect(freed).toEqual([]);
    queue.sweep(1500, (key) => freed.push(key));
    expect(freed).toEqual(['a', 'b']);
    expect(queue.length).toBe(1);
    queue.sweep(3000, (key) => freed.push(key));
    expect(freed).toEqual(['a', 'b', 'c']);
  });

  it('keeps everything when retention is null, and compacts after many frees', () => {
    const forever = new RetentionQueue<number>(null);
    forever.add(1, 0);
    expect(forever.length).toBe(0);
    const queue = new RetentionQueue<number>(1);
    for (let i = 0; i < 5000; i++) queue.add(i, i);
    let count = 0;
    queue.sweep(4000, () => count++);
    expect(count).toBe(4000);
    expect(queue.length).toBe(1000);
  });
});
