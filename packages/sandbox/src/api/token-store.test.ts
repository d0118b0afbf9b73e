import { describe, expect, it } from 'vitest';
import { createClock } from '../clock/clock.js';
import { TOKEN_LIFETIME_SECONDS, TokenStore } from './token-store.js';

describe('TokenStore', () => {
  it('resolves a token for an hour of sandbox time, then forgets it; newer tokens stay', async () => {
    const clock = createClock({ start: '2030-01-01T00:00:00Z', frozen: true });
    const tokens = new TokenStore(clock);
    const first = tokens.issue('client_1').accessToken;
    await clock.advance(TOKEN_LIFETIME_SECONDS / 2);
    const second = tokens.issue('client_2').accessToken;
    await clock.advance(TOKEN_LIFETIME_SECONDS / 2 - 1);
    expect(tokens.resolve(first)?.clientId).toBe('client_1');
    await clock.advance(1);
    // Issuing forgets the expired ones, as resolving does.
    const third = tokens.issue('client_3').accessToken;
    expect(tokens.resolve(first)).toBeUndefined();
    expect(tokens.resolve(second)?.clientId).toBe('client_2');
    await clock.advance(TOKEN_LIFETIME_SECONDS / 2);
    tokens.issue('client_4');
    expect(tokens.resolve(second)).toBeUndefined();
    expect(tokens.resolve(third)?.clientId).toBe('client_3');
  });
});
