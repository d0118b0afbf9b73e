import { describe, expect, it } from 'vitest';
import { newOperatorSession, OPERATOR_SESSION_MS, operatorIdOf } from './operator-session.js';

describe('an operator sign-in', () => {
  const now = Date.parse('2026-05-01T10:00:00Z');

  it('names the operator while it lasts, with a random id per sign-in', () => {
    const operator = newOperatorSession(now);
    expect(operatorIdOf({ operator }, now)).toBe(operator.id);
    expect(operatorIdOf({ operator }, now + OPERATOR_SESSION_MS)).toBe(operator.id);
    expect(newOperatorSession(now).id).not.toBe(operator.id);
  });

  it('ends after a working day, and is nothing without one or with a made-up one', () => {
    const operator = newOperatorSession(now);
    expect(operatorIdOf({ operator }, now + OPERATOR_SESSION_MS + 1)).toBeUndefined();
    expect(operatorIdOf({ operator }, now - 60_000)).toBeUndefined();
    expect(operatorIdOf({}, now)).toBeUndefined();
    expect(operatorIdOf({ accountId: 'demo-amira', signInId: 'x' }, now)).toBeUndefined();
    const madeUp = { operator: { id: 1, since: 'today' } } as unknown as Parameters<typeof operatorIdOf>[0];
    expect(operatorIdOf(madeUp, now)).toBeUndefined();
  });
});
