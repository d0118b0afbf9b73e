import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type QueuedTask, TaskQueue } from './task-queue.js';

describe('TaskQueue', () => {
  it('hands out live tasks by due time, then creation order, whatever was added and cancelled', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ dueAt: fc.integer({ min: 0, max: 50 }), cancel: fc.boolean() }), {
          maxLength: 200,
        }),
        fc.integer({ min: 0, max: 50 }),
        (specs, limit) => {
          const queue = new TaskQueue<QueuedTask>();
          const tasks = specs.map((spec, id) => ({ id, dueAt: spec.dueAt, cancelled: false }));
          for (const task of tasks) queue.push(task);
          tasks.forEach((task, index) => {
            if (specs[index]?.cancel) queue.cancel(task);
          });
          const live = tasks.filter((_, index) => !specs[index]?.cancel);
          const expected = [...live].sort((a, b) => a.dueAt - b.dueAt || a.id - b.id);
          expect(queue.size).toBe(live.length);
          expect(queue.sorted().map((task) => task.id)).toEqual(expected.map((task) => task.id));
          const taken: number[] = [];
          for (let task = queue.takeDueBy(limit); task; task = queue.takeDueBy(limit)) taken.push(task.id);
          expect(taken).toEqual(expected.filter((task) => task.dueAt <= limit).map((task) => task.id));
          expect(queue.size).toBe(live.filter((task) => task.dueAt > limit).length);
        },
      ),
    );
  });

  it('does not count a task cancelled after it was taken', () => {
    const queue = new TaskQueue<QueuedTask>();
    const task = { id: 1, dueAt: 0, cancelled: false };
    queue.push(task);
    expect(queue.takeDueBy(0)).toBe(task);
    queue.cancel(task);
    expect(queue.size).toBe(0);
  });
});
